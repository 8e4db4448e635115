import ChatCore
import FluentKit
import FluentSQL
import Foundation
import SQLKit

/// ``MessageSearch`` on PostgreSQL's full-text search: a generated `tsvector` column of the `text` of `message`
/// events (`simple` configuration: every word as written, lower-cased, in any language) with a GIN index, so an
/// edit or a delete, which rewrites the row's text, re-indexes it without the store's help.
///
/// The query is built from ``SearchTerms``' words, which hold only letters and digits, each quoted as a lexeme
/// (the last also as a prefix) and joined with `&`: nothing a user types is read as tsquery syntax, so no query can
/// fail on it. Unlike SQLite's index, accents are not folded (`café` does not find `cafe`).
public struct PostgresMessageSearch: MessageSearch {
    private let database: any SQLDatabase

    public init(database: any SQLDatabase) {
        self.database = database
    }

    /// The column and its index, created by ``AddPostgresSearch``.
    static let schema = [
        "ALTER TABLE messages ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (CASE WHEN kind = 'message' THEN to_tsvector('simple'::regconfig, text) END) STORED",
        "CREATE INDEX messages_search ON messages USING GIN (search_vector)",
    ]

    static let dropSchema = [
        "DROP INDEX IF EXISTS messages_search",
        "ALTER TABLE messages DROP COLUMN IF EXISTS search_vector",
    ]

    /// `ts_headline`'s options: about as much text around the matches as SQLite's `snippet(…, 16)`, the matches
    /// between the marks ``SnippetPart`` splits on.
    private static let headline =
        "StartSel=\(SnippetPart.matchStart), StopSel=\(SnippetPart.matchEnd), MaxWords=16, MinWords=8, ShortWord=0"

    public func search(_ terms: SearchTerms, for user: UUID, in room: RoomID?, limit: Int) async throws -> [SearchMatch]
    {
        let roomFilter = SearchMatch.roomCondition(room)
        let query: SQLQueryString = """
            SELECT m.*, ts_headline('simple'::regconfig, m.text, q.query, \(bind: Self.headline)) AS search_snippet
            FROM messages m
            JOIN memberships ms ON ms.room_id = m.room AND ms.user_id = \(bind: user)
            CROSS JOIN (SELECT to_tsquery('simple'::regconfig, \(bind: Self.tsquery(terms))) AS query) q
            WHERE m.search_vector @@ q.query AND m.kind = 'message' AND m.deleted = false\(roomFilter)
            ORDER BY ts_rank(m.search_vector, q.query) DESC, m.created_at DESC
            LIMIT \(bind: limit)
            """
        return try SearchMatch.decoded(from: try await self.database.raw(query).all())
    }

    /// Each word as a quoted lexeme, the last one also as a prefix when it is long enough, all required.
    static func tsquery(_ terms: SearchTerms) -> String {
        terms.words.enumerated().map { index, word in
            let quoted = "'" + word.replacingOccurrences(of: "'", with: "''") + "'"
            return terms.matchesAsPrefix(at: index) ? quoted + ":*" : quoted
        }.joined(separator: " & ")
    }
}
