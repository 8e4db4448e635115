import ChatCore
import ChatProtocol
import Metrics
import Vapor

/// `GET /api/v1/search?q=&room=&limit=` (PROTOCOL.md §9.7): messages of my rooms, ranked, with snippets.
struct SearchController: Sendable {
    let search: any MessageSearch
    let directory: any RoomDirectory

    func register(on authenticated: any RoutesBuilder) {
        authenticated.on(.search, use: self.find)
    }

    @Sendable func find(_ request: Request) async throws -> Response {
        let me = try request.authenticated.account
        let text = request.query[String.self, at: "q"] ?? ""
        guard !text.allSatisfy(\.isWhitespace), text.count <= SearchTerms.maxCharacters else {
            throw APIError.badRequest(.invalidQuery, "A search is 1 to \(SearchTerms.maxCharacters) characters.")
        }
        let limit: Int = try request.integerQuery("limit", code: .invalidLimit) ?? 20
        guard (1...100).contains(limit) else {
            throw APIError.badRequest(.invalidLimit, "limit is 1 to 100.")
        }
        var room: RoomID?
        if let raw = try? request.query.get(String.self, at: "room") {
            try await RoomAccess(directory: self.directory).requireMember(me.id, of: RoomID(raw))
            room = RoomID(raw)
        }
        // Only letters and digits are searched for: a query without any (`"`, `*`, `👍`) finds nothing.
        guard let terms = SearchTerms(text) else { return .json(SearchResults(results: [])) }
        let metrics = request.application.serverMetrics
        let started = ContinuousClock.now
        let matches = try await self.search.search(terms, for: me.id, in: room, limit: limit)
        metrics.searches.increment()
        metrics.searchDuration.record(duration: ContinuousClock.now - started)
        return .json(
            SearchResults(
                results: matches.map { match in
                    SearchHit(
                        message: match.message.payload,
                        snippet: match.snippet.map { SnippetPiece(text: $0.text, match: $0.isMatch ? true : nil) })
                }))
    }
}
