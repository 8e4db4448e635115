import ChatCore
import ChatProtocol
import FluentKit
import FluentSQL
import Foundation
import SQLKit

/// ``MessageSearch`` on PostgreSQL: a `tsvector` column of each message's tokens (``SearchDocument``) with a GIN
/// index. The server writes the column with the message's row, and again with an edit, so it holds exactly the
/// tokens SQLite's index holds; queries are `tsquery` literals of the same tokens, quoted, so nothing a user types
/// is read as syntax and no query fails on it.
public struct PostgresMessageSearch: MessageSearch {
    private let database: any SQLDatabase

    public init(database: any SQLDatabase) {
        self.database = database
    }

    /// The `search_vector` of a new event: a message's tokens, `nil` for every other kind.
    static func vector(of event: StoredMessage) -> String? {
        guard event.kind == .message, !event.deleted else { return nil }
        return SearchDocument.tsvector(
            SearchDocument.tokens(text: event.text, sender: event.sender.id, mentions: event.mentions))
    }

    /// Newest first. With words or features to find, the GIN index gives the matches; with filters on columns alone,
    /// the messages are read by their columns' indexes.
    public func search(_ criteria: SearchCriteria, for user: UUID, limit: Int) async throws -> [StoredMessage] {
        let conditions = SearchConditions.columns(criteria)
        let found: SQLQueryString
        if criteria.usesIndex {
            found = " AND m.search_vector @@ CAST(\(bind: Self.tsquery(criteria)) AS tsquery)"
        } else if !criteria.excluded.isEmpty {
            let excluded = criteria.excluded.map(Self.phrase).joined(separator: " | ")
            found = " AND NOT COALESCE(m.search_vector @@ CAST(\(bind: excluded) AS tsquery), false)"
        } else {
            found = ""
        }
        let order: SQLQueryString =
            criteria.room == nil || criteria.usesIndex ? "m.created_at DESC, m.seq DESC" : "m.seq DESC"
        let query: SQLQueryString = """
            SELECT m.* FROM messages m
            JOIN memberships ms ON ms.room_id = m.room AND ms.user_id = \(bind: user)
            WHERE m.kind = 'message' AND m.deleted = false\(found)\(conditions)
            ORDER BY \(order)
            LIMIT \(bind: limit)
            """
        return try await self.database.raw(query).all().map(MessageRecord.storedMessage(from:))
    }

    /// A `tsquery` of the criteria: each group (its phrases with `|`) with `&`, then `& !` the excluded ones.
    static func tsquery(_ criteria: SearchCriteria) -> String {
        var parts = criteria.required.map { group in "(" + group.map(Self.phrase).joined(separator: " | ") + ")" }
        if !criteria.excluded.isEmpty {
            parts.append("!(" + criteria.excluded.map(Self.phrase).joined(separator: " | ") + ")")
        }
        return parts.joined(separator: " & ")
    }

    /// A phrase as `tsquery` writes one: its lexemes quoted and joined by `<->` (next to each other), the last one
    /// with `:*` when it is a prefix.
    static func phrase(_ phrase: SearchPhrase) -> String {
        "("
            + phrase.tokens.map { token in
                SearchDocument.quotedLexeme(token.text) + (token.isPrefix ? ":*" : "")
            }.joined(separator: " <-> ") + ")"
    }
}
