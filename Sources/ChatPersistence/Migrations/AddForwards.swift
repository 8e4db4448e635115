import FluentKit

/// Adds forwarded messages (PROTOCOL.md §7.6): `messages.forwarded_from`, the original's sender as JSON.
struct AddForwards: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(MessageRecord.schema).field("forwarded_from", .string).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(MessageRecord.schema).deleteField("forwarded_from").update()
    }
}
