import FluentKit

/// Adds `blocks` (PROTOCOL.md §10.7): one row per account and account it blocked.
struct AddBlocks: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(BlockRecord.schema)
            .id()
            .field("blocker_id", .uuid, .required, .references(UserRecord.schema, "id", onDelete: .cascade))
            .field("blocked_id", .uuid, .required, .references(UserRecord.schema, "id", onDelete: .cascade))
            .field("created_at", .datetime)
            .unique(on: "blocker_id", "blocked_id")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(BlockRecord.schema).delete()
    }
}
