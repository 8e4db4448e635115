import ChatCore
import ChatProtocol
import Vapor

extension Application {
    /// Registers every endpoint.
    func registerRoutes(
        lobby: Room, accounts: AccountController, rooms: RoomsController, modern: ModernContext,
        configuration: ServerConfiguration
    ) {
        let api = self.grouped(Paths.api.map(PathComponent.constant)).grouped(APIErrorMiddleware())
        let authenticated = api.grouped(BearerAuthMiddleware(accounts: accounts.accounts))
        accounts.register(on: api, authenticated: authenticated)
        rooms.register(on: authenticated)
        self.registerModernSocket(on: api, accounts: accounts.accounts, context: modern, configuration: configuration)

        let chatLimits = WebSocketLimits(
            maxMessageBytes: configuration.maxFrameBytes, outboundQueueBytes: configuration.outboundQueueBytes)
        let chatRenderer = LobbyChatRenderer(announceJoins: configuration.announceJoins)
        let decoder = LobbyChatDecoder(maxMessageBytes: configuration.maxMessageBytes)
        let history = configuration.historyOnJoin
        self.get(.constant(Paths.chat)) { request in
            try request.upgradeToWebSocket(limits: chatLimits, renderer: chatRenderer) { connection in
                LobbyChatSession(connection: connection, lobby: lobby, decoder: decoder, history: history)
            }
        }

        // The relay may hold two of its largest messages for a client before dropping it as too slow.
        let echoLimits = WebSocketLimits(
            maxMessageBytes: configuration.echoMaxMessageBytes,
            outboundQueueBytes: max(configuration.outboundQueueBytes, 2 * configuration.echoMaxMessageBytes))
        let relay = EchoRelay()
        let verbatim = VerbatimRenderer()
        self.get(.constant(Paths.echo)) { request in
            guard let id = request.query[String.self, at: "id"], !id.isEmpty else {
                throw Abort(.badRequest, reason: "Missing query parameter id: connect to /echo/?id=NAME.")
            }
            return try request.upgradeToWebSocket(limits: echoLimits, renderer: verbatim) { connection in
                EchoSession(connection: connection, relay: relay)
            }
        }

        self.get(.constant(Paths.health)) { _ in "ok" }
    }
}
