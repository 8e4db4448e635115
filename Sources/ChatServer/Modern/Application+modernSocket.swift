import ChatCore
import Foundation
import Vapor

extension Application {
    /// `GET /api/v1/ws`: the modern WebSocket. The token comes as `?token=` (browsers cannot set headers on a
    /// WebSocket) or as `Authorization: Bearer`; without a valid one the answer is 401 and there is no upgrade.
    func registerModernSocket(
        on api: any RoutesBuilder, accounts: any AccountStore, context: ModernContext, configuration: ServerConfiguration
    ) {
        let limits = WebSocketLimits(maxMessageBytes: configuration.maxFrameBytes, outboundQueueBytes: configuration.outboundQueueBytes)
        let renderer = ModernRenderer()
        api.get("ws") { request async throws -> Response in
            guard let token = request.query[String.self, at: "token"] ?? request.headers.bearerAuthorization?.token,
                let userID = try await accounts.userID(forTokenHash: BearerToken.hash(token), now: Date()),
                let account = try await accounts.account(id: userID)
            else { throw APIError.unauthorized }
            let rooms = try await context.directory.memberships(of: account.id).map(\.room.id)
            return try request.upgradeToWebSocket(limits: limits, renderer: renderer, accountID: account.id) { connection in
                ModernSession(connection: connection, context: context, account: account, rooms: rooms)
            }
        }
    }
}
