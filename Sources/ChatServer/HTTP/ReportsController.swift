import ChatCore
import ChatProtocol
import ChatUseCases
import Vapor

/// Reports of messages (PROTOCOL.md §7.4): members file them, a room's moderators and the administrators read and
/// resolve them. The rules are ``Reports``'.
struct ReportsController: Sendable {
    let reports: Reports

    func register(on authenticated: any RoutesBuilder) {
        authenticated.on(.report, use: self.report)
        authenticated.on(.roomReports) { request in
            try await self.page(request, room: try RoomsController.roomID(request))
        }
        authenticated.on(.adminReports) { try await self.page($0, room: nil) }
        authenticated.on(.resolveReport, use: self.resolve)
    }

    /// `POST /rooms/{id}/messages/{seq}/report` `{reason}` → 201 the report (200 when I reported it before).
    @Sendable func report(_ request: Request) async throws -> Response {
        let me = try request.authenticated.account
        let room = try RoomsController.roomID(request)
        guard let seq = request.parameters.get("seq").flatMap(Int64.init), seq > 0 else {
            throw APIError.badRequest(.badTarget, "seq must be a message's sequence number.")
        }
        let body = try request.content.decode(ReportRequest.self)
        let filed = try await self.reports.report(seq, in: room, by: me, reason: body.reason)
        return .json(filed.report, status: filed.created ? .created : .ok)
    }

    /// `POST /reports/{id}/resolve` `{action}` → 200 the report, resolved.
    @Sendable func resolve(_ request: Request) async throws -> Response {
        let me = try request.authenticated.account
        guard let id = request.parameters.get("id").flatMap(Int64.init) else {
            throw APIError(status: .notFound, code: .notFound, message: "No such report.")
        }
        let body = try request.content.decode(ResolveReportRequest.self)
        return .json(
            try await self.reports.resolve(id, action: body.action, by: me, from: request.clientAddress))
    }

    /// `GET /rooms/{id}/reports` or `GET /admin/reports`, `?state=open|resolved|all&after=&limit=`.
    private func page(_ request: Request, room: RoomID?) async throws -> Response {
        let after: Int64? = try request.integerQuery("after", code: .badRequest)
        return .json(
            try await self.reports.reports(
                in: room, for: try request.authenticated.account, state: request.query[String.self, at: "state"],
                after: after, limit: try request.integerQuery("limit", code: .invalidLimit)))
    }
}
