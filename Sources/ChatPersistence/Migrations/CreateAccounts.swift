import FluentKit

/// Creates `users` and `tokens`.
struct CreateAccounts: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(UserRecord.schema)
            .id()
            .field("username", .string, .required)
            .field("username_key", .string, .required)
            .field("display_name", .string, .required)
            .field("avatar_color", .string, .required)
            .field("password_hash", .string, .required)
            .field("created_at", .datetime)
            .unique(on: "username_key")
            .create()
        try await database.schema(TokenRecord.schema)
            .id()
            .field("token_hash", .string, .required)
            .field("user_id", .uuid, .required, .references(UserRecord.schema, "id", onDelete: .cascade))
            .field("expires_at", .datetime, .required)
            .field("created_at", .datetime)
            .unique(on: "token_hash")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(TokenRecord.schema).delete()
        try await database.schema(UserRecord.schema).delete()
    }
}
