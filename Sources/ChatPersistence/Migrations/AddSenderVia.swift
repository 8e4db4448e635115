import FluentKit

/// Adds `sender_via` (and `reply_sender_via` for quotes) to `messages`: which tutorial protocol a sender without an
/// account spoke (`chat`, `tcp`), so a `/chat` client that names itself with an account's id is never taken for that
/// account. Existing tutorial messages were stored before the column and stay `NULL`.
struct AddSenderVia: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(MessageRecord.schema).field("sender_via", .string).update()
        try await database.schema(MessageRecord.schema).field("reply_sender_via", .string).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(MessageRecord.schema).deleteField("reply_sender_via").update()
        try await database.schema(MessageRecord.schema).deleteField("sender_via").update()
    }
}
