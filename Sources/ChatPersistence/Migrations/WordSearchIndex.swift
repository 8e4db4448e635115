import FluentKit
import SQLKit

/// SQLite's search index as the migrations before ``IndexSearchTokens`` made it: FTS5's `unicode61` tokenizer over
/// the `text` of `messages` (external content), kept current by triggers. The migrations that built it still run on
/// a new database, in order, before ``IndexSearchTokens`` replaces it.
enum SQLiteWordIndex {
    /// The index as ``AddRichEvents`` first created it.
    static let createIndexWithoutPrefixes =
        "CREATE VIRTUAL TABLE message_search USING fts5(text, content='messages', tokenize='unicode61 remove_diacritics 2')"

    /// The index with prefixes of three characters indexed (``AddSearchPrefixIndex``).
    static let createIndex =
        "CREATE VIRTUAL TABLE message_search USING fts5(text, content='messages', tokenize='unicode61 remove_diacritics 2', prefix='3')"

    /// Indexes the messages already stored (only messages: edits, reactions and the like have no words to find).
    static let indexExisting =
        "INSERT INTO message_search(rowid, text) SELECT rowid, text FROM messages WHERE kind = 'message'"

    /// Indexes every message stored (into an empty index, for the migrations that make it anew) and, once the index
    /// follows the commits (``IndexSearchAfterCommit``), records that it holds them all.
    static func indexExisting(on sql: any SQLDatabase) async throws {
        try await sql.raw(SQLQueryString(Self.indexExisting)).run()
        guard try await sql.raw("SELECT 1 FROM sqlite_master WHERE name = 'search_position'").first() != nil else {
            return
        }
        try await sql.raw("UPDATE search_position SET indexed_upto = (SELECT COALESCE(MAX(rowid), 0) FROM messages)")
            .run()
    }

    /// Indexes the messages stored after `search_position` and moves it past them, in one transaction; changes
    /// nothing, so writes nothing to the log, when none is waiting (``IndexSearchAfterCommit``).
    static let indexPending = [
        """
        INSERT INTO message_search(rowid, text) SELECT rowid, text FROM messages
        WHERE rowid > (SELECT indexed_upto FROM search_position) AND kind = 'message'
        """,
        """
        UPDATE search_position SET indexed_upto = (SELECT MAX(rowid) FROM messages)
        WHERE indexed_upto < (SELECT MAX(rowid) FROM messages)
        """,
    ]

    /// The index and its triggers, as the first migration created them; the last statement indexes existing messages.
    static let schema = [
        createIndexWithoutPrefixes,
        """
        CREATE TRIGGER message_search_insert AFTER INSERT ON messages WHEN new.kind = 'message' BEGIN
          INSERT INTO message_search(rowid, text) VALUES (new.rowid, new.text);
        END
        """,
        """
        CREATE TRIGGER message_search_update AFTER UPDATE OF text ON messages WHEN new.kind = 'message' BEGIN
          INSERT INTO message_search(message_search, rowid, text) VALUES ('delete', old.rowid, old.text);
          INSERT INTO message_search(rowid, text) VALUES (new.rowid, new.text);
        END
        """,
        indexExisting,
    ]

    static let dropSchema = [
        "DROP TRIGGER IF EXISTS message_search_update",
        "DROP TRIGGER IF EXISTS message_search_insert",
        "DROP TABLE IF EXISTS message_search",
    ]
}

/// PostgreSQL's search column as ``AddPostgresSearch`` made it, before ``IndexSearchTokens`` replaced it: a
/// generated `tsvector` of the text (`simple` configuration).
enum PostgresWordIndex {
    /// The column and its index, created by ``AddPostgresSearch``.
    static let schema = [
        "ALTER TABLE messages ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (CASE WHEN kind = 'message' THEN to_tsvector('simple'::regconfig, text) END) STORED",
        "CREATE INDEX messages_search ON messages USING GIN (search_vector)",
    ]

    static let dropSchema = [
        "DROP INDEX IF EXISTS messages_search",
        "ALTER TABLE messages DROP COLUMN IF EXISTS search_vector",
    ]
}
