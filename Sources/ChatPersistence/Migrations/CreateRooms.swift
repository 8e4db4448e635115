import FluentKit

/// Creates `rooms` and `memberships`.
struct CreateRooms: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(RoomRecord.schema)
            .field("id", .string, .identifier(auto: false))
            .field("kind", .string, .required)
            .field("name", .string)
            .field("created_by", .uuid)
            .field("direct_key", .string)
            .field("created_at", .datetime)
            .unique(on: "direct_key")
            .create()
        try await database.schema(MembershipRecord.schema)
            .id()
            .field("room_id", .string, .required, .references(RoomRecord.schema, "id", onDelete: .cascade))
            .field("user_id", .uuid, .required, .references(UserRecord.schema, "id", onDelete: .cascade))
            .field("last_read_seq", .int64, .required)
            .field("joined_at", .datetime)
            .unique(on: "room_id", "user_id")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(MembershipRecord.schema).delete()
        try await database.schema(RoomRecord.schema).delete()
    }
}
