import ChatCore
import FluentKit
import FluentSQL
import Foundation
import SQLKit

/// ``MessageSearch`` on SQLite's FTS5: an external-content index of the `text` of `message` events, kept current by
/// triggers (an edit or a delete rewrites the row's text, so the index follows without the store's help).
///
/// The index refers to rows by their `rowid`, which SQLite keeps stable as long as the table is not `VACUUM`ed;
/// the server never does that.
public struct SQLiteMessageSearch: MessageSearch {
    private let database: any SQLDatabase

    public init(database: any SQLDatabase) {
        self.database = database
    }

    /// The index and its triggers, created by the migration; the last statement indexes existing messages.
    static let schema = [
        "CREATE VIRTUAL TABLE message_search USING fts5(text, content='messages', tokenize='unicode61 remove_diacritics 2')",
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
        "INSERT INTO message_search(rowid, text) SELECT rowid, text FROM messages WHERE kind = 'message'",
    ]

    static let dropSchema = [
        "DROP TRIGGER IF EXISTS message_search_update",
        "DROP TRIGGER IF EXISTS message_search_insert",
        "DROP TABLE IF EXISTS message_search",
    ]

    public func search(_ terms: SearchTerms, for user: UUID, in room: RoomID?, limit: Int) async throws -> [SearchMatch]
    {
        let roomFilter = SearchMatch.roomCondition(room)
        let query: SQLQueryString = """
            SELECT m.*, snippet(message_search, 0, char(2), char(3), '…', 16) AS search_snippet
            FROM message_search
            JOIN messages m ON m.rowid = message_search.rowid
            JOIN memberships ms ON ms.room_id = m.room AND ms.user_id = \(bind: user)
            WHERE message_search MATCH \(bind: Self.match(terms)) AND m.kind = 'message' AND m.deleted = 0\(roomFilter)
            ORDER BY bm25(message_search), m.created_at DESC
            LIMIT \(bind: limit)
            """
        return try SearchMatch.decoded(from: try await self.database.raw(query).all())
    }

    /// An FTS5 query that matches the words literally: each one quoted (a quote inside doubled), the last one also
    /// as a prefix.
    static func match(_ terms: SearchTerms) -> String {
        terms.words.enumerated().map { index, word in
            let quoted = "\"" + word.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            return index == terms.words.count - 1 ? quoted + "*" : quoted
        }.joined(separator: " ")
    }
}
