import Foundation

/// Who blocked whom (PROTOCOL.md §10.7): a blocked account can no longer open or write to a direct room with the
/// account that blocked it, and is left out of that account's people search.
public protocol BlockStore: Sendable {
    /// `false` when it was blocked already.
    func block(_ blocked: UUID, by blocker: UUID) async throws -> Bool
    /// `false` when it was not blocked.
    func unblock(_ blocked: UUID, by blocker: UUID) async throws -> Bool
    /// The accounts `blocker` blocked, oldest first.
    func blocked(by blocker: UUID) async throws -> [UUID]
    func isBlocked(_ blocked: UUID, by blocker: UUID) async throws -> Bool
}
