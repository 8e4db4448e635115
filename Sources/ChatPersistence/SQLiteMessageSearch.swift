import ChatCore
import FluentKit
import FluentSQL
import Foundation
import SQLKit

/// ``MessageSearch`` on SQLite's FTS5: an external-content index of the `text` of `message` events. Messages are
/// indexed shortly after their commit, off its path (``IndexSearchAfterCommit``); a search first indexes whatever is
/// still waiting, so it finds every message stored before it. A trigger follows edits and deletes of indexed
/// messages (they rewrite the row's text).
///
/// The index refers to rows by their `rowid`, which SQLite keeps stable as long as the table is not `VACUUM`ed;
/// the server never does that.
public struct SQLiteMessageSearch: MessageSearch {
    private let database: any SQLDatabase
    private let writer: SerialSQLWriter
    private let candidates: Int

    /// - Parameters:
    ///   - writer: the writer of the messages, which indexes them (``SerialSQLWriter/indexSearch()``).
    ///   - candidates: the most matches a search ranks by relevance (PROTOCOL.md §9.7); with more, the newest come
    ///     first, so that the work stops growing with the number of matches.
    public init(database: any SQLDatabase, writer: SerialSQLWriter, candidates: Int = Self.defaultCandidates) {
        self.database = database
        self.writer = writer
        self.candidates = candidates
    }

    public static let defaultCandidates = 1000

    /// The index as ``AddRichEvents`` first created it.
    static let createIndexWithoutPrefixes =
        "CREATE VIRTUAL TABLE message_search USING fts5(text, content='messages', tokenize='unicode61 remove_diacritics 2')"

    /// The index as it is now, with prefixes of three characters indexed (``AddSearchPrefixIndex``).
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

    /// Ranked by `bm25` when the whole index holds at most `candidates` matches, else newest first.
    ///
    /// `bm25` reads every match in the index (it counts them for each word's weight), and `snippet` on a row
    /// fetched by `rowid` runs the query again, so ranking costs what the number of matches costs. Past
    /// `candidates` matches the words are common enough that relevance says little, and the newest matches in the
    /// caller's rooms are found by walking the index newest first (FTS5 reads its lists in `rowid` order, and
    /// `CROSS JOIN` keeps it the outer loop), stopping after `limit` of them.
    public func search(_ terms: SearchTerms, for user: UUID, in room: RoomID?, limit: Int) async throws -> [SearchMatch]
    {
        try await self.writer.indexSearch()
        let match = Self.match(terms)
        // The words without the last one's prefix match no more than with it: when they are already common, the
        // costlier count of the prefix form is not needed.
        var common = try await self.matchesMore(than: self.candidates, Self.match(terms, lastAsPrefix: false))
        if !common && terms.lastMatchesAsPrefix {
            common = try await self.matchesMore(than: self.candidates, match)
        }
        let roomFilter = SearchMatch.roomCondition(room)
        let order: SQLQueryString =
            common ? "message_search.rowid DESC" : "bm25(message_search), message_search.rowid DESC"
        let query: SQLQueryString = """
            SELECT m.*, snippet(message_search, 0, char(2), char(3), '…', 16) AS search_snippet
            FROM message_search
            CROSS JOIN messages m ON m.rowid = message_search.rowid
            CROSS JOIN memberships ms ON ms.room_id = m.room AND ms.user_id = \(bind: user)
            WHERE message_search MATCH \(bind: match) AND m.kind = 'message' AND m.deleted = 0\(roomFilter)
            ORDER BY \(order)
            LIMIT \(bind: limit)
            """
        return try SearchMatch.decoded(from: try await self.database.raw(query).all())
    }

    /// Whether the index holds more than `count` rows that match, reading at most one more than that.
    private func matchesMore(than count: Int, _ match: String) async throws -> Bool {
        let row = try await self.database.raw(
            """
            SELECT COUNT(*) AS found FROM (SELECT rowid FROM message_search WHERE message_search MATCH \(bind: match) \
            LIMIT \(bind: count + 1))
            """
        ).first()
        return try (row?.decode(column: "found", as: Int.self) ?? 0) > count
    }

    /// An FTS5 query that matches the words literally: each one quoted (a quote inside doubled), the last one also
    /// as a prefix when it is long enough (``SearchTerms/lastMatchesAsPrefix``), unless told otherwise.
    static func match(_ terms: SearchTerms, lastAsPrefix: Bool = true) -> String {
        terms.words.enumerated().map { index, word in
            let quoted = "\"" + word.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            return lastAsPrefix && terms.matchesAsPrefix(at: index) ? quoted + "*" : quoted
        }.joined(separator: " ")
    }
}
