import ChatCore
import ChatProtocol
import Foundation

/// Full-text search of the messages in my rooms (PROTOCOL.md §9.7), ranked, with snippets; or of one room I am in.
public struct SearchMessages: Sendable {
    let search: any MessageSearch
    let access: RoomAccess

    public init(search: any MessageSearch, access: RoomAccess) {
        self.search = search
        self.access = access
    }

    /// How many results a search may ask for; 20 when it does not say.
    public static let limits = 1...100
    public static let defaultLimit = 20

    /// The matches of `text` for `user`, in `room` when one is named. Only letters and digits are searched for: a
    /// query without any (`"`, `*`, `👍`) finds nothing.
    public func callAsFunction(_ text: String, for user: UUID, in room: RoomID?, limit: Int?) async throws
        -> SearchResults
    {
        guard !text.allSatisfy(\.isWhitespace), text.count <= SearchTerms.maxCharacters else {
            throw Refusal.invalid(.invalidQuery, "A search is 1 to \(SearchTerms.maxCharacters) characters.")
        }
        let limit = limit ?? Self.defaultLimit
        guard Self.limits.contains(limit) else {
            throw Refusal.invalid(.invalidLimit, "limit is \(Self.limits.lowerBound) to \(Self.limits.upperBound).")
        }
        return try await StoreUnavailable.guarding("messages could not be searched") {
            if let room { try await self.access.requireMember(user, of: room) }
            guard let terms = SearchTerms(text) else { return SearchResults(results: []) }
            let matches = try await self.search.search(terms, for: user, in: room, limit: limit)
            return SearchResults(
                results: matches.map { match in
                    SearchHit(
                        message: match.message.payload,
                        snippet: match.snippet.map { SnippetPiece(text: $0.text, match: $0.isMatch ? true : nil) })
                })
        }
    }
}
