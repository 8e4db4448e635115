import ChatCore
import ChatProtocol
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
    /// A ``RoomRole``'s raw value.
    @Field(key: "role") var role: String
    /// A ``NotificationLevel``'s raw value; `nil` for the default of the room's kind.
    @OptionalField(key: "notification_level") var notificationLevel: String?
    /// When the member pinned the room; `nil` when it is not pinned.
    @OptionalField(key: "pinned_at") var pinnedAt: Date?
    @OptionalField(key: "draft") var draft: String?
    @OptionalField(key: "marked_unread") var markedUnread: Bool?

    init() {}

    init(room: RoomID, user: UUID, role: RoomRole = .member) {
        self.roomID = room.rawValue
        self.userID = user
        self.lastReadSeq = 0
        self.role = role.rawValue
    }
}

/// A row of the `room_restrictions` table: a ban (may not be a member) or a mute (may not send) of one account in one
/// room (PROTOCOL.md §7.3).
final class RoomRestrictionRecord: Model, @unchecked Sendable {
    static let schema = "room_restrictions"

    @ID(key: .id) var id: UUID?
    @Field(key: "room_id") var roomID: String
    @Field(key: "user_id") var userID: UUID
    /// A ``RoomRestriction``'s raw value.
    @Field(key: "kind") var kind: String
    @OptionalField(key: "created_by") var createdBy: UUID?
    @Field(key: "created_at") var createdAt: Date

    init() {}

    init(room: RoomID, user: UUID, kind: RoomRestriction, by actor: UUID?, at date: Date) {
        self.roomID = room.rawValue
        self.userID = user
        self.kind = kind.rawValue
        self.createdBy = actor
        self.createdAt = date
    }
}

extension MembershipRecord {
    var personal: PersonalRoomState {
        PersonalRoomState(pinned: self.pinnedAt != nil, draft: self.draft, markedUnread: self.markedUnread == true)
    }
}
