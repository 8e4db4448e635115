import Foundation

/// Messages older than a date and not deleted, for `--retention-days` (PROTOCOL.md §10.8): oldest first.
public protocol AgedMessages: Sendable {
    func messages(olderThan date: Date, limit: Int) async throws -> [(room: RoomID, seq: Int64)]
}
