import ChatCore
import FluentKit
import Foundation

/// A row of the `memberships` table.
final class MembershipRecord: Model, @unchecked Sendable {
    static let schema = "memberships"

    @ID(key: .id) var id: UUID?
    @Field(key: "room_id") var roomID: String
    @Field(key: "user_id") var userID: UUID
    @Field(key: "last_read_seq") var lastReadSeq: Int64
    @Timestamp(key: "joined_at", on: .create) var joinedAt: Date?

    init() {}

    init(room: RoomID, user: UUID) {
        self.roomID = room.rawValue
        self.userID = user
        self.lastReadSeq = 0
    }
}
