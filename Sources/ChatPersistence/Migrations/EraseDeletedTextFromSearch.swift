import FluentKit
import SQLKit

/// Makes a deleted message's words leave the search index's storage, not only its results.
///
/// FTS5 normally records a delete as a marker and keeps the old words in its segments until they happen to be
/// merged, so "delete removes the text from storage" would not hold for the index file. The `secure-delete` option
/// (SQLite 3.44+) rewrites the segments at once; `rebuild` rewrites the index from the current rows, dropping
/// whatever earlier deletes left behind.
struct EraseDeletedTextFromSearch: AsyncMigration {
    func prepare(on database: any Database) async throws {
        guard let sql = database as? any SQLDatabase, sql.dialect.name == "sqlite" else { return }
        try await sql.raw("INSERT INTO message_search(message_search, rank) VALUES ('secure-delete', 1)").run()
        try await sql.raw("INSERT INTO message_search(message_search) VALUES ('rebuild')").run()
    }

    func revert(on database: any Database) async throws {
        guard let sql = database as? any SQLDatabase, sql.dialect.name == "sqlite" else { return }
        try await sql.raw("INSERT INTO message_search(message_search, rank) VALUES ('secure-delete', 0)").run()
    }
}
