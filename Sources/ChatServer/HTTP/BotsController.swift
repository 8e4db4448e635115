import ChatCore
import ChatProtocol
import ChatUseCases
import Vapor

/// `/api/v1/bots` (PROTOCOL.md §9.13): making, listing, re-keying and deleting my bots, their outgoing webhooks and
/// what became of their deliveries; and the replies a bot posts through an event's `replyURL`.
struct BotsController: Sendable {
    let bots: Bots
    let replies: BotReplies

    func register(on authenticated: any RoutesBuilder) {
        authenticated.on(.createBot) { request in
            let created = try await self.bots.create(
                try request.content.decode(BotCreateRequest.self), by: try request.authenticated.account)
            return Response.json(created, status: .created)
        }
        authenticated.on(.bots) { request in
            Response.json(try await self.bots.list(for: try request.authenticated.account.id))
        }
        authenticated.on(.botToken) { request in
            Response.json(
                try await self.bots.newToken(for: Self.botID(request), by: try request.authenticated.account))
        }
        authenticated.on(.updateBot) { request in
            Response.json(
                try await self.bots.setWebhook(
                    try request.content.decode(BotWebhookRequest.self), of: Self.botID(request),
                    by: try request.authenticated.account))
        }
        authenticated.on(.botDeliveries) { request in
            Response.json(
                try await self.bots.deliveries(of: Self.botID(request), by: try request.authenticated.account))
        }
        authenticated.on(.deleteBot) { request in
            try await self.bots.delete(
                Self.botID(request), by: try request.authenticated.account, from: request.clientAddress)
            return HTTPStatus.noContent
        }
    }

    /// `POST /bots/replies/{token}` with `{"text","clientMsgID"?}` or a `text/plain` body → `201` with the ack; a
    /// retry of the same `clientMsgID` → `200` with the original's. The token in the path is the authorization.
    func registerReplies(on api: any RoutesBuilder) {
        api.on(.botReply) { request in
            let body: BotReplyRequest =
                if request.headers.contentType?.type == "text" {
                    BotReplyRequest(text: request.body.string ?? "")
                } else {
                    try request.content.decode(BotReplyRequest.self)
                }
            let outcome = try await self.replies.post(body, token: request.parameters.get("token") ?? "")
            return RoomsController.answer(outcome)
        }
    }

    private static func botID(_ request: Request) -> UUID? {
        request.parameters.get("id").flatMap(UUID.init(uuidString:))
    }
}
