import FluentKit
import FluentSQL
import SQLKit

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
        // A room's subscribed members are found from the subscriptions' side (PushAudience).
        try await database.requiredSQL(by: "AddWebPush").raw(
            "CREATE INDEX push_subscriptions_by_user ON push_subscriptions (user_id)"
        ).run()
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
