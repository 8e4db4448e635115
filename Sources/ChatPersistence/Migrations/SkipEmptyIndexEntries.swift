import FluentKit
import SQLKit

/// Makes the three indexes of `messages` on columns most messages leave empty partial: they hold only the rows
/// that have a value.
///
/// `target_seq` (edits, deletes, reactions), `reply_seq` (replies) and `client_msg_id` (modern sends; a tutorial
/// message has none) are `NULL` in most rows, and a full index still gets an entry, so a page written, for each.
/// Every commit appends each page it changed to SQLite's write-ahead log: a `/chat` message wrote ten pages, three
/// of them only to record these `NULL`s (docs/BENCHMARKS.md, "Where the time goes"). Every query on them names a
/// value (`target_seq = ?`, `sender_id = ? AND client_msg_id = ?`), which implies `IS NOT NULL`, so SQLite and
/// PostgreSQL both still use them; the unique index still refuses a second copy of a retried send.
struct SkipEmptyIndexEntries: AsyncMigration {
    private static let indexes: [(name: String, unique: Bool, columns: String, present: String)] = [
        ("messages_room_target", false, "room, target_seq", "target_seq"),
        ("messages_room_reply", false, "room, reply_seq", "reply_seq"),
        ("messages_sender_client_msg_id", true, "sender_id, client_msg_id", "client_msg_id"),
    ]

    func prepare(on database: any Database) async throws {
        try await Self.recreate(partial: true, on: database)
    }

    func revert(on database: any Database) async throws {
        try await Self.recreate(partial: false, on: database)
    }

    /// In one transaction, so a server stopped halfway keeps the old indexes and migrates at its next start.
    private static func recreate(partial: Bool, on database: any Database) async throws {
        try await database.writeTransaction { transaction in
            let sql = transaction.requiredSQL(by: "SkipEmptyIndexEntries")
            for index in Self.indexes {
                let unique = index.unique ? "UNIQUE " : ""
                let condition = partial ? " WHERE \(index.present) IS NOT NULL" : ""
                try await sql.raw("DROP INDEX \(ident: index.name)").run()
                try await sql.raw(
                    "CREATE \(unsafeRaw: unique)INDEX \(ident: index.name) ON messages (\(unsafeRaw: index.columns))\(unsafeRaw: condition)"
                ).run()
            }
        }
    }
}
