import FluentKit

/// Adds `incoming_webhooks` (PROTOCOL.md §9.14): a room's webhooks, found by their secret's hash; they go with
/// their room.
struct AddIncomingWebhooks: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(WebhookRecord.schema)
            .id()
            .field("room_id", .string, .required, .references(RoomRecord.schema, "id", onDelete: .cascade))
            .field("name", .string, .required)
            .field("secret_hash", .string, .required)
            .field("created_by", .uuid, .required)
            .field("created_at", .datetime, .required)
            .unique(on: "secret_hash")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(WebhookRecord.schema).delete()
    }
}
