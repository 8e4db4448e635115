import ChatCore
import ChatProtocol
import ChatUseCases
import Vapor

/// `/api/v1/bots` (PROTOCOL.md §9.13): making, listing, re-keying and deleting my bots, their outgoing webhooks and
/// what became of their deliveries.
struct BotsController: Sendable {
    let bots: Bots

    func register(on authenticated: any RoutesBuilder) {
        authenticated.on(.createBot) { request in
            let created = try await self.bots.create(
                try request.content.decode(BotCreateRequest.self), by: try request.authenticated.account)
            return try Response.json(created, status: .created)
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

    private static func botID(_ request: Request) -> UUID? {
        request.parameters.get("id").flatMap(UUID.init(uuidString:))
    }
}
