import FluentKit
import FluentSQL
import SQLKit

/// Adds bots' outgoing webhooks (PROTOCOL.md §9.13): `bot_webhooks`, one per bot, and `bot_deliveries`, the newest
/// outcomes of each (read from the bot's side).
struct AddBotWebhooks: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(BotWebhookRecord.schema)
            .field("bot_id", .uuid, .identifier(auto: false), .references(UserRecord.schema, "id", onDelete: .cascade))
            .field("url", .string, .required)
            .field("secret", .string, .required)
            .create()
        try await database.schema(BotDeliveryRecord.schema)
            .field("id", .int64, .identifier(auto: true))
            .field("bot_id", .uuid, .required, .references(UserRecord.schema, "id", onDelete: .cascade))
            .field("room", .string, .required)
            .field("seq", .int64, .required)
            .field("status", .int)
            .field("outcome", .string, .required)
            .field("created_at", .datetime, .required)
            .create()
        try await database.requiredSQL(by: "AddBotWebhooks").raw(
            "CREATE INDEX bot_deliveries_by_bot ON bot_deliveries (bot_id, id)"
        ).run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(BotDeliveryRecord.schema).delete()
        try await database.schema(BotWebhookRecord.schema).delete()
    }
}
