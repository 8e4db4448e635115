import ChatCore
import ChatProtocol
import ChatUseCases
import Metrics
import Vapor

/// Finding messages: `GET /api/v1/search?q=&room=&from=&has=&before=&after=&limit=` (PROTOCOL.md §9.7), messages of
/// my rooms, newest first, with snippets; and `GET /api/v1/mentions?before=&limit=` (§9.10), the messages that mention me.
struct SearchController: Sendable {
    let search: SearchMessages
    let mentions: MentionsOfMe

    func register(on authenticated: any RoutesBuilder) {
        authenticated.on(.search, use: self.find)
        authenticated.on(.mentions) { request in
            Response.json(
                try await self.mentions.page(
                    for: try request.authenticated.account.id,
                    before: try request.integerQuery("before", code: .invalidBefore),
                    limit: try request.integerQuery("limit", code: .invalidLimit)))
        }
    }

    @Sendable func find(_ request: Request) async throws -> Response {
        let me = try request.authenticated.account
        let text = request.query[String.self, at: "q"] ?? ""
        let limit: Int? = try request.integerQuery("limit", code: .invalidLimit)
        let room = request.query[String.self, at: "room"].map { RoomID($0) }
        let filters = SearchMessages.filterParameters.compactMap { key in
            request.query[String.self, at: key].map { (key: key, value: $0) }
        }
        let metrics = request.application.serverMetrics
        let started = ContinuousClock.now
        let results = try await self.search(text, filters: filters, for: me.id, in: room, limit: limit)
        metrics.searches.increment()
        metrics.searchDuration.record(duration: ContinuousClock.now - started)
        return .json(results)
    }
}
