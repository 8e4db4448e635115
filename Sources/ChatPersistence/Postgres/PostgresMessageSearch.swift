import ChatCore
import ChatProtocol
import FluentKit
import FluentSQL
import Foundation
import Logging
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

    /// Messages filled per statement by ``fillMissingVectors(on:logger:)``.
    static let fillBatch = 5_000

    /// Writes the `search_vector` of every message that has none, in batches, with progress in the log: after
    /// ``IndexSearchTokens`` adds the column, and after `migrate-to-postgres` copies rows that SQLite indexed its own
    /// way.
    public static func fillMissingVectors(on sql: any SQLDatabase, logger: Logger) async throws {
        let pending = "kind = 'message' AND deleted = false AND search_vector IS NULL"
        let total =
            try await sql.raw("SELECT COUNT(*) AS total FROM messages WHERE \(unsafeRaw: pending)").first()?
            .decode(column: "total", as: Int.self) ?? 0
        guard total > 0 else { return }
        logger.notice("Indexing \(total) messages for search")
        var done = 0
        while true {
            let rows = try await sql.raw(
                """
                SELECT room, seq, text, sender_id, mentions, mentions_all FROM messages WHERE \(unsafeRaw: pending)
                ORDER BY room, seq LIMIT \(bind: Self.fillBatch)
                """
            ).all()
            guard !rows.isEmpty else { break }
            try await Self.fill(rows, on: sql)
            done += rows.count
            logger.notice("Search index: \(done) of \(total) messages")
        }
    }

    /// Writes the `search_vector` of each row, in one statement.
    private static func fill(_ rows: [any SQLRow], on sql: any SQLDatabase) async throws {
        var values: [SQLQueryString] = []
        for row in rows {
            let mentioned =
                try row.decodeNil(column: "mentions")
                ? []
                : try JSONDecoder().decode(
                    [UUID].self, from: Data(row.decode(column: "mentions", as: String.self).utf8))
            let mentions = Mentions(accounts: mentioned, all: try row.decode(column: "mentions_all", as: Bool.self))
            let tokens = SearchDocument.tokens(
                text: try row.decode(column: "text", as: String.self),
                sender: try row.decode(column: "sender_id", as: UUID.self), mentions: mentions)
            values.append(
                "(\(bind: try row.decode(column: "room", as: String.self)), \(bind: try row.decode(column: "seq", as: Int64.self)), \(bind: SearchDocument.tsvector(tokens)))"
            )
        }
        try await sql.raw(
            """
            UPDATE messages m SET search_vector = CAST(v.vector AS tsvector)
            FROM (VALUES \(values.joined(separator: ", "))) AS v(room, seq, vector)
            WHERE m.room = v.room AND m.seq = v.seq
            """
        ).run()
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
