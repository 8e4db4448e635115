import FluentKit
import Logging
import SQLKit

/// Makes search find words in every script (PROTOCOL.md §9.7): both databases now index the server's own tokens
/// (``SearchDocument``) instead of cutting the text themselves. SQLite's `unicode61` and PostgreSQL's `simple`
/// parser kept a run of Chinese or Thai as one word, so only its start could be found.
///
/// - SQLite: the FTS5 table is made anew, contentless, over the tokens; it starts empty with `search_position` at 0,
///   and the writer fills it at start-up in batches, with its progress in the log
///   (``SerialSQLWriter/catchUpSearchIndex(logger:)``).
/// - PostgreSQL: the generated `search_vector` becomes a column the server writes; existing messages are filled in
///   batches here, with progress in the log, then the GIN index is built once.
struct IndexSearchTokens: AsyncMigration {
    func prepare(on database: any Database) async throws {
        if let sql = database.sql(ifDialect: "sqlite") {
            try await Self.prepareSQLite(sql, on: database)
        } else if let sql = database.sql(ifDialect: "postgresql") {
            try await Self.preparePostgres(sql, logger: database.logger)
        }
    }

    func revert(on database: any Database) async throws {
        if database.sql(ifDialect: "sqlite") != nil {
            try await database.writeTransaction { transaction in
                let sql = transaction.requiredSQL(by: "IndexSearchTokens")
                try await sql.raw("DROP TABLE message_search").run()
                try await sql.raw(SQLQueryString(SQLiteWordIndex.createIndex)).run()
                try await sql.raw("INSERT INTO message_search(message_search, rank) VALUES ('secure-delete', 1)").run()
                try await SQLiteWordIndex.indexExisting(on: sql)
                try await sql.raw(SQLQueryString(IndexSearchAfterCommit.updateTrigger)).run()
            }
        } else if let sql = database.sql(ifDialect: "postgresql") {
            for statement in PostgresWordIndex.dropSchema + PostgresWordIndex.schema {
                try await sql.raw(SQLQueryString(statement)).run()
            }
        }
    }

    /// In one transaction: a server stopped halfway keeps the old index and migrates again at its next start.
    private static func prepareSQLite(_ sql: any SQLDatabase, on database: any Database) async throws {
        try await database.writeTransaction { transaction in
            let sql = transaction.requiredSQL(by: "IndexSearchTokens")
            try await sql.raw("DROP TRIGGER IF EXISTS message_search_update").run()
            try await sql.raw("DROP TABLE message_search").run()
            try await sql.raw(SQLQueryString(SQLiteMessageSearch.createIndex)).run()
            try await sql.raw("INSERT INTO message_search(message_search, rank) VALUES ('secure-delete', 1)").run()
            try await sql.raw("UPDATE search_position SET indexed_upto = 0").run()
        }
    }

    private static func preparePostgres(_ sql: any SQLDatabase, logger: Logger) async throws {
        for statement in [
            "DROP INDEX IF EXISTS messages_search",
            "ALTER TABLE messages DROP COLUMN IF EXISTS search_vector",
            "ALTER TABLE messages ADD COLUMN search_vector tsvector",
        ] {
            try await sql.raw(SQLQueryString(statement)).run()
        }
        try await PostgresMessageSearch.fillMissingVectors(on: sql, logger: logger)
        try await sql.raw("CREATE INDEX messages_search ON messages USING GIN (search_vector)").run()
    }
}
