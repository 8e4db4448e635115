import ChatCore
import ChatProtocol
import ChatUseCases
import Metrics
import Vapor

/// `GET /api/v1/search?q=&room=&limit=` (PROTOCOL.md §9.7): messages of my rooms, ranked, with snippets.
struct SearchController: Sendable {
    let search: SearchMessages

    func register(on authenticated: any RoutesBuilder) {
        authenticated.on(.search, use: self.find)
    }

    @Sendable func find(_ request: Request) async throws -> Response {
        let me = try request.authenticated.account
        let text = request.query[String.self, at: "q"] ?? ""
        let limit: Int? = try request.integerQuery("limit", code: .invalidLimit)
        let room = request.query[String.self, at: "room"].map { RoomID($0) }
        let metrics = request.application.serverMetrics
        let started = ContinuousClock.now
        let results = try await self.search(text, for: me.id, in: room, limit: limit)
        metrics.searches.increment()
        metrics.searchDuration.record(duration: ContinuousClock.now - started)
        return .json(results)
    }
}
