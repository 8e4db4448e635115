import ChatCore
import FluentSQL
import SQLKit

extension SearchMatch {
    /// `AND m.room = ?` when the search is limited to one room, else nothing: what both search engines add to their
    /// query.
    static func roomCondition(_ room: RoomID?) -> SQLQueryString {
        room.map { SQLQueryString(" AND m.room = \(bind: $0.rawValue)") } ?? SQLQueryString("")
    }

    /// The matches in rows that hold a message's columns and its marked `search_snippet`, as both search engines
    /// select them.
    static func decoded(from rows: [any SQLRow]) throws -> [SearchMatch] {
        try rows.map { row in
            let message = try MessageRecord.storedMessage(from: row)
            let snippet = try row.decode(column: "search_snippet", as: String.self)
            return SearchMatch(message: message, snippet: SnippetPart.pieces(of: snippet))
        }
    }
}
