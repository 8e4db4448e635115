import FluentKit
import SQLKit

/// Makes a deleted message's words leave the search index's storage, not only its results.
///
/// FTS5 normally records a delete as a marker and keeps the old words in its segments until they happen to be
/// merged, so "delete removes the text from storage" would not hold for the index file. The `secure-delete` option
/// (SQLite 3.44+) rewrites the segments at once. The index is then emptied and filled again from the current
/// messages, dropping whatever earlier deletes left behind (not FTS5's `rebuild`, which would index every row of
/// the table, edit events included, where the triggers index only messages).
struct EraseDeletedTextFromSearch: AsyncMigration {
    func prepare(on database: any Database) async throws {
        guard database.sql(ifDialect: "sqlite") != nil else { return }
        // In one transaction: a server stopped halfway keeps the old index and migrates again at its next start.
        try await database.writeTransaction { transaction in
            let sql = transaction.requiredSQL(by: "EraseDeletedTextFromSearch")
            try await sql.raw("INSERT INTO message_search(message_search, rank) VALUES ('secure-delete', 1)").run()
            try await sql.raw("INSERT INTO message_search(message_search) VALUES ('delete-all')").run()
            try await SQLiteWordIndex.indexExisting(on: sql)
        }
    }

    func revert(on database: any Database) async throws {
        guard let sql = database.sql(ifDialect: "sqlite") else { return }
        try await sql.raw("INSERT INTO message_search(message_search, rank) VALUES ('secure-delete', 0)").run()
    }
}
