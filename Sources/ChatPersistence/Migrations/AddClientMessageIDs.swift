import FluentKit
import SQLKit

/// Adds `client_msg_id` to `messages`, unique per sender: the database itself refuses a second copy of a retried
/// send. Tutorial messages have none (NULLs never collide in a unique index).
struct AddClientMessageIDs: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(MessageRecord.schema).field("client_msg_id", .string).update()
        guard let sql = database as? any SQLDatabase else { return }
        try await sql.create(index: "messages_sender_client_msg_id")
            .on(MessageRecord.schema).column("sender_id").column("client_msg_id").unique().run()
    }

    func revert(on database: any Database) async throws {
        if let sql = database as? any SQLDatabase {
            try await sql.drop(index: "messages_sender_client_msg_id").run()
        }
        try await database.schema(MessageRecord.schema).deleteField("client_msg_id").update()
    }
}
