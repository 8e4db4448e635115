import FluentKit
import Foundation

/// A row of `blocks`: `blocker_id` blocked `blocked_id`; unique per pair.
final class BlockRecord: Model, @unchecked Sendable {
    static let schema = "blocks"

    @ID(key: .id) var id: UUID?
    @Field(key: "blocker_id") var blockerID: UUID
    @Field(key: "blocked_id") var blockedID: UUID
    @Timestamp(key: "created_at", on: .create) var createdAt: Date?

    init() {}

    init(blocker: UUID, blocked: UUID) {
        self.blockerID = blocker
        self.blockedID = blocked
    }
}
