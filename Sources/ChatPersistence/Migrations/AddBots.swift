import FluentKit
import FluentSQL
import SQLKit

/// Adds bots (PROTOCOL.md §9.13) to `users`: `is_bot`, and `bot_owner_id`, the account that made the bot (indexed:
/// "my bots" is asked from the owner's side). Existing accounts are people, but for the demo bot, `echo-bot`, a bot
/// without an owner from now on (its token replaces its password at the next start).
struct AddBots: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(UserRecord.schema).field("is_bot", .bool, .required, .sql(.default(false)))
            .update()
        try await database.schema(UserRecord.schema).field("bot_owner_id", .uuid).update()
        try await database.requiredSQL(by: "AddBots").raw(
            "CREATE INDEX users_by_bot_owner ON users (bot_owner_id) WHERE bot_owner_id IS NOT NULL"
        ).run()
        try await UserRecord.query(on: database).filter(\.$usernameKey == "echo-bot").set(\.$isBot, to: true).update()
    }

    func revert(on database: any Database) async throws {
        try await database.requiredSQL(by: "AddBots").raw("DROP INDEX users_by_bot_owner").run()
        try await database.schema(UserRecord.schema).deleteField("bot_owner_id").update()
        try await database.schema(UserRecord.schema).deleteField("is_bot").update()
    }
}
