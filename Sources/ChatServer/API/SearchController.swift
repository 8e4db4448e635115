import ChatCore
import ChatProtocol
import Vapor

/// `GET /api/v1/search?q=&room=&limit=` (PROTOCOL.md §9.7): messages of my rooms, ranked, with snippets.
struct SearchController: Sendable {
    let search: any MessageSearch
    let directory: any RoomDirectory

    func register(on authenticated: any RoutesBuilder) {
        authenticated.get("search", use: self.find)
    }

    @Sendable func find(_ request: Request) async throws -> Response {
        let me = try request.authenticated.account
        let text = (try? request.query.get(String.self, at: "q")) ?? ""
        guard let terms = SearchTerms(text) else {
            throw APIError.badRequest(
                "invalid_query", "A search needs a letter or digit and is at most \(SearchTerms.maxCharacters) characters.")
        }
        let limit = (try? request.query.get(Int.self, at: "limit")) ?? 20
        guard (1...100).contains(limit) else {
            throw APIError.badRequest("invalid_limit", "limit is 1 to 100.")
        }
        var room: RoomID?
        if let raw = try? request.query.get(String.self, at: "room") {
            guard try await self.directory.isMember(me.id, of: RoomID(raw)) else { throw RoomsController.forbidden }
            room = RoomID(raw)
        }
        let matches = try await self.search.search(terms, for: me.id, in: room, limit: limit)
        return .json(SearchResults(results: matches.map { match in
            SearchHit(message: match.message.payload, snippet: match.snippet.map { SnippetPiece(text: $0.text, match: $0.isMatch ? true : nil) })
        }))
    }
}
