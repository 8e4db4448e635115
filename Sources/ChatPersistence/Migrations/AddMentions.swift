import FluentKit
import FluentSQL
import SQLKit

/// Adds mentions (PROTOCOL.md §9.10): each message's `mentions` (its mentioned accounts' ids, as JSON) and
/// `mentions_all`, and the `mentions` table that lists them by account, one row per message and account mentioned
/// (`user_id` `NULL` for `@all`, which mentions every member without a row each), so "my mentions" and a room's unread
/// mentions are index lookups; and each membership's `notification_level` (`NULL`: the default for the room's kind).
struct AddMentions: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(MessageRecord.schema).field("mentions", .string).update()
        try await database.schema(MessageRecord.schema)
            .field("mentions_all", .bool, .required, .sql(.default(false))).update()
        try await database.schema(MentionRecord.schema)
            .field("id", .int64, .identifier(auto: true))
            .field("room", .string, .required)
            .field("seq", .int64, .required)
            .field("user_id", .uuid)
            .field("created_at", .datetime, .required)
            .create()
        try await database.schema(MembershipRecord.schema).field("notification_level", .string).update()
        let sql = database.requiredSQL(by: "AddMentions")
        try await sql.raw("CREATE INDEX mentions_by_user ON mentions (user_id, id)").run()
        try await sql.raw("CREATE INDEX mentions_by_message ON mentions (room, seq)").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(MembershipRecord.schema).deleteField("notification_level").update()
        try await database.schema(MentionRecord.schema).delete()
        try await database.schema(MessageRecord.schema).deleteField("mentions_all").update()
        try await database.schema(MessageRecord.schema).deleteField("mentions").update()
    }
}
