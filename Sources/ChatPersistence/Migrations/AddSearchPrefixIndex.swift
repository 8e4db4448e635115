import FluentKit
import SQLKit

/// Gives SQLite's search index a prefix index for prefixes of three characters (FTS5's `prefix='3'`).
///
/// The last word of a search also matches as a prefix (PROTOCOL.md §9.7). Without a prefix index, FTS5 gathers the
/// lists of every word that starts with it before it reads the first match, so a short prefix of common words cost
/// what their million occurrences cost (60 ms on a lobby of 1,000,000 messages, BENCHMARKS.md "How cost grows with
/// work"). With one, a three-character prefix's list is read like a word's, newest first, and the walk stops at the
/// page (3 ms). *Why three only:* it is what people type first; shorter ones do not match as prefixes
/// (``SearchPhrase/minimumPrefixBytes``), longer ones name few words; and each length indexed adds an entry per
/// word to every commit (three: 11 µs and about 40 bytes per message of 20 words; two and three: twice that).
///
/// FTS5 takes the option only when the table is created: the index is made again, with `secure-delete` as
/// ``EraseDeletedTextFromSearch`` set it, and filled from the current messages (once, at start-up: 8.4 s for a
/// million messages on the benchmark's machine). The triggers that keep it current refer to it by name and stay as they are.
struct AddSearchPrefixIndex: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await Self.recreate(SQLiteWordIndex.createIndex, on: database)
    }

    func revert(on database: any Database) async throws {
        try await Self.recreate(SQLiteWordIndex.createIndexWithoutPrefixes, on: database)
    }

    /// In one transaction: a server stopped halfway finds the old index whole, never none (the triggers on
    /// `messages` would then refuse every insert), and the migration runs again at the next start.
    private static func recreate(_ create: String, on database: any Database) async throws {
        guard database.sql(ifDialect: "sqlite") != nil else { return }
        try await database.writeTransaction { transaction in
            let sql = transaction.requiredSQL(by: "AddSearchPrefixIndex")
            try await sql.raw("DROP TABLE message_search").run()
            try await sql.raw(SQLQueryString(create)).run()
            try await sql.raw("INSERT INTO message_search(message_search, rank) VALUES ('secure-delete', 1)").run()
            try await SQLiteWordIndex.indexExisting(on: sql)
        }
    }
}
