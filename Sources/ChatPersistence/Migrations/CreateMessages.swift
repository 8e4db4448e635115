import FluentKit

/// Creates the `messages` table. `(room, seq)` is unique: it is both the ordering key every read uses and the
/// guard that no sequence number is ever stored twice.
struct CreateMessages: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(MessageRecord.schema)
            .id()
            .field("room", .string, .required)
            .field("seq", .int64, .required)
            .field("sender_name", .string, .required)
            .field("sender_id", .uuid, .required)
            .field("text", .string, .required)
            .field("created_at", .datetime, .required)
            .unique(on: "room", "seq")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(MessageRecord.schema).delete()
    }
}
