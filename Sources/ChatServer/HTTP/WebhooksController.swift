import ChatCore
import ChatProtocol
import ChatUseCases
import Foundation
import Vapor

/// Incoming webhooks (PROTOCOL.md §9.14): a room's webhooks under `/api/v1/rooms/{id}/webhooks`, and `POST
/// /hooks/SECRET`, which answers as Slack's incoming webhooks do (plain text: `ok`, `no_text`…) so that software
/// written for Slack reads its answers.
struct WebhooksController: Sendable {
    let webhooks: IncomingWebhooks

    /// What `POST /hooks/SECRET` reads at most: a Slack message with attachments, before its text is checked against
    /// `--max-message-bytes`.
    static let maxBodyBytes: ByteCount = "64kb"

    func register(on authenticated: any RoutesBuilder) {
        authenticated.on(.createWebhook) { request in
            let created = try await self.webhooks.create(
                try request.content.decode(WebhookCreateRequest.self), in: try RoomsController.roomID(request),
                by: try request.authenticated.account)
            return Response.json(created, status: .created)
        }
        authenticated.on(.webhooks) { request in
            Response.json(
                try await self.webhooks.list(
                    in: try RoomsController.roomID(request), by: try request.authenticated.account))
        }
        authenticated.on(.deleteWebhook) { request in
            try await self.webhooks.delete(
                request.parameters.get("id").flatMap(UUID.init(uuidString:)),
                in: try RoomsController.roomID(request), by: try request.authenticated.account)
            return HTTPStatus.noContent
        }
    }

    func registerHooks(on routes: any RoutesBuilder, logger: Logger) {
        routes.on(.POST, "hooks", ":secret", body: .collect(maxSize: Self.maxBodyBytes)) { request in
            do {
                _ = try await self.webhooks.post(
                    Self.message(in: request), secret: request.parameters.get("secret") ?? "")
                return Self.answer(.ok, "ok")
            } catch let refusal as IncomingWebhooks.PostRefusal {
                if case .rateLimited = refusal { request.application.serverMetrics.refused(.webhook) }
                return Self.answer(for: refusal)
            } catch let failure as StoreUnavailable {
                logger.error("\(failure)")
                let response = Self.answer(.serviceUnavailable, "unavailable")
                response.headers.replaceOrAdd(name: .retryAfter, value: "1")
                return response
            }
        }
    }

    /// The Slack message of the body: JSON, or the form field `payload` holding JSON; `nil` when it is neither.
    private static func message(in request: Request) -> SlackMessage? {
        guard let body = request.body.data else { return nil }
        if request.headers.contentType == .urlEncodedForm {
            guard let form = try? request.content.decode([String: String].self, as: .urlEncodedForm),
                let payload = form["payload"]
            else { return nil }
            return try? JSONDecoder().decode(SlackMessage.self, from: Data(payload.utf8))
        }
        return try? JSONDecoder().decode(SlackMessage.self, from: Data(body.readableBytesView))
    }

    private static func answer(for refusal: IncomingWebhooks.PostRefusal) -> Response {
        switch refusal {
        case .unknownSecret: return Self.answer(.notFound, "no_service")
        case .invalidPayload: return Self.answer(.badRequest, "invalid_payload")
        case .noText: return Self.answer(.badRequest, "no_text")
        case .tooLong: return Self.answer(.payloadTooLarge, "too_long")
        case .rateLimited(let seconds):
            let response = Self.answer(.tooManyRequests, "rate_limited")
            response.headers.replaceOrAdd(name: .retryAfter, value: String(seconds))
            return response
        }
    }

    private static func answer(_ status: HTTPResponseStatus, _ text: String) -> Response {
        Response(status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: .init(string: text))
    }
}
