import ChatCore
import ChatProtocol
import Vapor

extension Application {
    /// Registers every endpoint.
    func registerRoutes(lobby: Room, endpoints: Endpoints, legacyText: LegacyText, configuration: ServerConfiguration) {
        let api = self.grouped(Paths.api.map(PathComponent.constant)).grouped(APIErrorMiddleware())
        let authenticated = api.grouped(BearerAuthMiddleware(accounts: endpoints.accounts.accounts))
        endpoints.accounts.register(on: api, authenticated: authenticated)
        endpoints.rooms.register(on: authenticated)
        endpoints.attachments.register(on: api, authenticated: authenticated)
        endpoints.search.register(on: authenticated)
        endpoints.config.register(on: api)
        self.registerModernSocket(on: api, accounts: endpoints.accounts.accounts, context: endpoints.modern, configuration: configuration)

        let chatLimits = WebSocketLimits(
            maxMessageBytes: configuration.maxFrameBytes, outboundQueueBytes: configuration.outboundQueueBytes)
        let chatRenderer = LobbyChatRenderer(announceJoins: configuration.announceJoins, legacyText: legacyText)
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
