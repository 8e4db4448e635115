import ChatCore
import ChatProtocol
import FluentKit
import FluentSQL
import SQLKit

/// Adds what room moderation needs (PROTOCOL.md §7.3): each membership's `role`, the `room_restrictions` (bans and
/// mutes, kept apart from memberships so that leaving and joining again lifts neither), and the
/// `member_id`/`member_name` of membership events (§9.1). Every channel's and group's creator who is still a member
/// becomes its owner; everyone else is a member.
struct AddRoomRoles: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(MembershipRecord.schema)
            .field("role", .string, .required, .sql(.default(RoomRole.member.rawValue))).update()
        try await database.schema(MessageRecord.schema).field("member_id", .uuid).update()
        try await database.schema(MessageRecord.schema).field("member_name", .string).update()
        try await database.schema(RoomRestrictionRecord.schema)
            .id()
            .field("room_id", .string, .required, .references(RoomRecord.schema, "id", onDelete: .cascade))
            .field("user_id", .uuid, .required, .references(UserRecord.schema, "id", onDelete: .cascade))
            .field("kind", .string, .required)
            .field("created_by", .uuid)
            .field("created_at", .datetime, .required)
            .unique(on: "room_id", "user_id", "kind")
            .create()
        try await database.requiredSQL(by: "AddRoomRoles").raw(
            """
            UPDATE memberships SET role = \(bind: RoomRole.owner.rawValue)
            WHERE user_id = (SELECT created_by FROM rooms WHERE rooms.id = memberships.room_id AND rooms.kind <> 'direct')
            """
        ).run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(RoomRestrictionRecord.schema).delete()
        try await database.schema(MessageRecord.schema).deleteField("member_name").update()
        try await database.schema(MessageRecord.schema).deleteField("member_id").update()
        try await database.schema(MembershipRecord.schema).deleteField("role").update()
    }
}
