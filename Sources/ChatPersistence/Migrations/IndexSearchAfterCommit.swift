import FluentKit
import SQLKit

/// Takes SQLite's search index off the commit path: messages are indexed after they are committed, many at a time.
///
/// A trigger indexed each message inside its commit: FTS5 wrote a segment of its own for every batch, four of the
/// seven pages a `/chat` commit appended to the log, and its work was the largest part of the commit after the log
/// write itself (docs/BENCHMARKS.md, "Where the time goes"). Now `search_position` records the last `rowid` the
/// index holds, and ``SerialSQLWriter/indexSearch()`` indexes the messages after it, in one transaction that also
/// moves the position: shortly after each commit (``SerialSQLWriter/searchDelay``), before every search (a search
/// sees every message acknowledged before it), and when the server starts (what a crash left unindexed). An edit or
/// a delete rewrites the index only for a message the index already holds; one it does not hold yet is indexed
/// later with its text as it is then.
struct IndexSearchAfterCommit: AsyncMigration {
    static let updateTrigger = """
        CREATE TRIGGER message_search_update AFTER UPDATE OF text ON messages
        WHEN new.kind = 'message' AND old.rowid <= (SELECT indexed_upto FROM search_position) BEGIN
          INSERT INTO message_search(message_search, rowid, text) VALUES ('delete', old.rowid, old.text);
          INSERT INTO message_search(rowid, text) VALUES (new.rowid, new.text);
        END
        """

    func prepare(on database: any Database) async throws {
        guard database.sql(ifDialect: "sqlite") != nil else { return }
        try await database.writeTransaction { transaction in
            let sql = transaction.requiredSQL(by: "IndexSearchAfterCommit")
            // Every message stored so far is indexed: the insert trigger ran for each.
            try await sql.raw(
                "CREATE TABLE search_position (id INTEGER PRIMARY KEY CHECK (id = 1), indexed_upto INTEGER NOT NULL)"
            ).run()
            try await sql.raw(
                "INSERT INTO search_position (id, indexed_upto) SELECT 1, COALESCE(MAX(rowid), 0) FROM messages"
            ).run()
            try await sql.raw("DROP TRIGGER message_search_insert").run()
            try await sql.raw("DROP TRIGGER message_search_update").run()
            try await sql.raw(SQLQueryString(Self.updateTrigger)).run()
        }
    }

    func revert(on database: any Database) async throws {
        guard database.sql(ifDialect: "sqlite") != nil else { return }
        try await database.writeTransaction { transaction in
            let sql = transaction.requiredSQL(by: "IndexSearchAfterCommit")
            for statement in SQLiteWordIndex.indexPending { try await sql.raw(SQLQueryString(statement)).run() }
            try await sql.raw("DROP TRIGGER message_search_update").run()
            try await sql.raw("DROP TABLE search_position").run()
            for statement in SQLiteWordIndex.schema[1...2] { try await sql.raw(SQLQueryString(statement)).run() }
        }
    }
}
