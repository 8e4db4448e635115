import ChatCore
import FluentKit
import FluentSQL
import Foundation
import SQLKit

/// ``MessageSearch`` on SQLite's FTS5: a contentless index of each message's tokens (``SearchDocument``), read by
/// FTS5's `ascii` tokenizer, which splits only where the tokens are spaced. Messages are indexed shortly after their
/// commit, off its path (``IndexSearchAfterCommit``), by the writer's `search_tokens` function
/// (``SQLiteSearchTokens``); a search first indexes whatever is still waiting, so it finds every message stored
/// before it. An edit re-indexes its message and a delete removes it, in their own transaction (``EventEffects``).
///
/// The index refers to rows by their `rowid`, which SQLite keeps stable as long as the table is not `VACUUM`ed;
/// the server never does that.
public struct SQLiteMessageSearch: MessageSearch {
    private let database: any SQLDatabase
    private let writer: SerialSQLWriter

    /// - Parameter writer: the writer of the messages, which indexes them (``SerialSQLWriter/indexSearch()``).
    public init(database: any SQLDatabase, writer: SerialSQLWriter) {
        self.database = database
        self.writer = writer
    }

    /// The index (``IndexSearchTokens``): contentless, so it keeps no copy of the text; prefixes of three characters
    /// are indexed (``AddSearchPrefixIndex`` says why). Not `contentless_delete`, whose deletes leave the words in
    /// storage until a merge: a row is taken out by ``unindexing(room:seq:)``, with `secure-delete`.
    static let createIndex =
        "CREATE VIRTUAL TABLE message_search USING fts5(tokens, content='', tokenize='ascii', prefix='3')"

    /// Indexes the messages stored after `search_position` and moves it past them, in one transaction; changes
    /// nothing, so writes nothing to the log, when none is waiting (``IndexSearchAfterCommit``). Deleted messages
    /// have nothing to find.
    static let indexPending = [
        """
        INSERT INTO message_search(rowid, tokens) SELECT rowid, \(Self.tokensOfRow) FROM messages
        WHERE rowid > (SELECT indexed_upto FROM search_position) AND kind = 'message' AND deleted = 0
        """,
        """
        UPDATE search_position SET indexed_upto = (SELECT MAX(rowid) FROM messages)
        WHERE indexed_upto < (SELECT MAX(rowid) FROM messages)
        """,
    ]

    /// The tokens of the row at hand, by the writer's function.
    static let tokensOfRow = "\(SQLiteSearchTokens.name)(text, sender_id, mentions, mentions_all)"

    /// Takes message `seq` out of the index, when the index holds it: FTS5's `delete` command with the tokens it
    /// indexed, made again from the row's columns, so this runs before an edit or a delete changes them. (The index
    /// keeps no copy of them; with the tokens given, `secure-delete` removes them from its storage at once.)
    static func unindexing(room: String, seq: Int64) -> any SQLExpression {
        SQLQueryString(
            """
            INSERT INTO message_search(message_search, rowid, tokens)
            SELECT 'delete', rowid, \(unsafeRaw: Self.tokensOfRow) FROM messages
            WHERE room = \(bind: room) AND seq = \(bind: seq) AND kind = 'message' AND deleted = 0
            AND rowid <= (SELECT indexed_upto FROM search_position)
            """)
    }

    /// Puts an edited message back in the index as it is now, when the index held it (one it does not hold yet is
    /// indexed later, as it is then).
    static func indexing(room: String, seq: Int64) -> any SQLExpression {
        SQLQueryString(
            """
            INSERT INTO message_search(rowid, tokens) SELECT rowid, \(unsafeRaw: Self.tokensOfRow) FROM messages
            WHERE room = \(bind: room) AND seq = \(bind: seq) AND rowid <= (SELECT indexed_upto FROM search_position)
            """)
    }

    /// Newest first. With words or features to find, FTS5 walks its lists newest first (it reads them in `rowid`
    /// order, and `CROSS JOIN` keeps it the outer loop) and stops after `limit` matches in the caller's rooms; with
    /// filters on columns alone, the messages are walked newest first instead (one room's by its `seq`).
    public func search(_ criteria: SearchCriteria, for user: UUID, limit: Int) async throws -> [StoredMessage] {
        try await self.writer.indexSearch()
        let conditions = SearchConditions.columns(criteria)
        let query: SQLQueryString
        if criteria.usesIndex {
            query = """
                SELECT m.* FROM message_search
                CROSS JOIN messages m ON m.rowid = message_search.rowid
                CROSS JOIN memberships ms ON ms.room_id = m.room AND ms.user_id = \(bind: user)
                WHERE message_search MATCH \(bind: Self.match(criteria)) AND m.kind = 'message' AND m.deleted = 0\(conditions)
                ORDER BY message_search.rowid DESC
                LIMIT \(bind: limit)
                """
        } else {
            let excluded = self.excluded(criteria.excluded)
            let order: SQLQueryString = criteria.room == nil ? "m.rowid DESC" : "m.seq DESC"
            query = """
                SELECT m.* FROM messages m
                CROSS JOIN memberships ms ON ms.room_id = m.room AND ms.user_id = \(bind: user)
                WHERE m.kind = 'message' AND m.deleted = 0\(conditions)\(excluded)
                ORDER BY \(order)
                LIMIT \(bind: limit)
                """
        }
        return try await self.database.raw(query).all().map(MessageRecord.storedMessage(from:))
    }

    /// `AND NOT EXISTS …` for phrases to exclude when the index is not the outer loop.
    private func excluded(_ phrases: [SearchPhrase]) -> SQLQueryString {
        guard !phrases.isEmpty else { return "" }
        let match = phrases.map(Self.phrase).joined(separator: " OR ")
        return """
             AND NOT EXISTS (SELECT 1 FROM message_search WHERE message_search MATCH \(bind: match) \
            AND message_search.rowid = m.rowid)
            """
    }

    /// An FTS5 query of the criteria: each group (its phrases with `OR`) with `AND`, then `NOT` the excluded ones.
    static func match(_ criteria: SearchCriteria) -> String {
        let required = criteria.required.map { group in
            "(" + group.map(Self.phrase).joined(separator: " OR ") + ")"
        }.joined(separator: " AND ")
        guard !criteria.excluded.isEmpty else { return required }
        return "(" + required + ") NOT (" + criteria.excluded.map(Self.phrase).joined(separator: " OR ") + ")"
    }

    /// A phrase as FTS5 writes one: its tokens quoted and joined by `+` (next to each other), the last one with `*`
    /// when it is a prefix. A token holds no quote (letters, digits, marks, `⁂`), but one is doubled all the same.
    static func phrase(_ phrase: SearchPhrase) -> String {
        phrase.tokens.map { token in
            let quoted = "\"" + token.text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            return token.isPrefix ? quoted + " *" : quoted
        }.joined(separator: " + ")
    }
}
