import FluentKit

/// Adds `reports` (PROTOCOL.md §7.4): one row per member and message reported, with what the message said then, open
/// until someone resolves it.
struct AddReports: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(ReportRecord.schema)
            .field("id", .int64, .identifier(auto: true))
            .field("room_id", .string, .required, .references(RoomRecord.schema, "id", onDelete: .cascade))
            .field("seq", .int64, .required)
            .field("reporter_id", .uuid, .required)
            .field("reporter_name", .string, .required)
            .field("author_id", .uuid, .required)
            .field("author_name", .string, .required)
            .field("author_via", .string)
            .field("text", .string, .required)
            .field("reason", .string, .required)
            .field("created_at", .datetime, .required)
            .field("resolution", .string)
            .field("resolved_by_id", .uuid)
            .field("resolved_by_name", .string)
            .field("resolved_at", .datetime)
            .unique(on: "room_id", "seq", "reporter_id")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(ReportRecord.schema).delete()
    }
}
