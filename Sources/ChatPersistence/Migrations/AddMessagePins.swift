import FluentKit
import SQLKit

/// Adds pinned messages (PROTOCOL.md §7.8): `messages.pinned_at`, when a message was pinned to the top of its room,
/// `NULL` while it is not; indexed only where set, since few of a room's messages are ever pinned.
struct AddMessagePins: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(MessageRecord.schema).field("pinned_at", .datetime).update()
        try await database.requiredSQL(by: "AddMessagePins").raw(
            "CREATE INDEX messages_pinned ON messages (room, pinned_at) WHERE pinned_at IS NOT NULL"
        ).run()
    }

    func revert(on database: any Database) async throws {
        try await database.requiredSQL(by: "AddMessagePins").raw("DROP INDEX messages_pinned").run()
        try await database.schema(MessageRecord.schema).deleteField("pinned_at").update()
    }
}
