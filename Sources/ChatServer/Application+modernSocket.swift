import ChatCore
import ChatProtocol
import ChatUseCases
import Foundation
import Vapor

extension Application {
    /// `GET /api/v1/ws`: the modern WebSocket. The token comes as `Authorization: Bearer` or as `?token=`
    /// (browsers cannot set headers on a WebSocket); without a valid one the answer is 401 and there is no upgrade.
    /// An account with `--max-sockets-per-account` connections open gets 429.
    func registerModernSocket(
        on api: any RoutesBuilder, authenticate: Authenticate, context: ModernContext,
        configuration: ServerConfiguration
    ) {
        let limits = WebSocketLimits(
            maxMessageBytes: configuration.maxFrameBytes, outboundQueueBytes: configuration.outboundQueueBytes,
            keepalive: KeepaliveSweeps(interval: .seconds(Int64(configuration.pingInterval))))
        let renderer = ModernRenderer()
        api.on(.socket) { request async throws -> Response in
            guard let token = request.bearerToken(allowingQuery: true),
                let signedIn = try await authenticate(token: token)
            else { throw APIError.unauthorized }
            guard context.sessions.count(of: signedIn.account.id) < context.maxSocketsPerAccount else {
                throw APIError.rateLimited(
                    .socketsPerAccount, "This account has too many connections open; close one or try again in",
                    .seconds(4))
            }
            let rooms = try await context.membership.rooms(of: signedIn.account.id)
            return try request.upgradeToWebSocket(
                .modern, limits: limits, renderer: renderer, accountID: signedIn.account.id,
                username: signedIn.account.username
            ) { connection in
                ModernSession(connection: connection, context: context, signedIn: signedIn, rooms: rooms)
            }
        }
    }
}
