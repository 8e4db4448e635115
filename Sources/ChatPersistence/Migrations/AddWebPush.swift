import FluentKit

/// Adds Web Push (PROTOCOL.md §9.11): `push_subscriptions`, one row per browser endpoint, and `server_keys`, which
/// holds the VAPID key pair every node signs with.
struct AddWebPush: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(PushSubscriptionRecord.schema)
            .id()
            .field("user_id", .uuid, .required, .references(UserRecord.schema, "id", onDelete: .cascade))
            .field("endpoint", .string, .required)
            .field("p256dh", .string, .required)
            .field("auth", .string, .required)
            .field("created_at", .datetime, .required)
            .unique(on: "endpoint")
            .create()
        try await database.schema(ServerKeyRecord.schema)
            .field("name", .string, .identifier(auto: false))
            .field("value", .string, .required)
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(ServerKeyRecord.schema).delete()
        try await database.schema(PushSubscriptionRecord.schema).delete()
    }
}
