import ChatCore
import ChatProtocol
import ChatUseCases
import Vapor

extension Application {
    /// Registers every endpoint.
    func registerRoutes(
        lobby: Room, endpoints: Endpoints, tutorialText: TutorialText, sendLimit: TutorialSendLimit,
        configuration: ServerConfiguration
    ) {
        let api = self.grouped(APIRoute.prefix.map(PathComponent.constant)).grouped(APIErrorMiddleware())
        let authenticate = endpoints.authenticate
        let authenticated = api.grouped(BearerAuthMiddleware(authenticate: authenticate))
        endpoints.accounts.register(on: api, authenticated: authenticated)
        endpoints.rooms.register(on: authenticated)
        endpoints.roomModeration.register(on: authenticated)
        endpoints.reports.register(on: authenticated)
        endpoints.attachments.register(on: api, authenticated: authenticated)
        endpoints.avatars.register(on: api, authenticated: authenticated)
        endpoints.search.register(on: authenticated)
        endpoints.push.register(on: authenticated)
        endpoints.bots.register(on: authenticated)
        endpoints.bots.registerReplies(on: api)
        endpoints.pins.register(on: authenticated)
        endpoints.contacts.register(on: authenticated)
        endpoints.webhooks.register(on: authenticated)
        endpoints.admin.register(on: authenticated)
        endpoints.invites.register(on: authenticated)
        endpoints.config.register(on: api)
        self.registerModernSocket(
            on: api, authenticate: authenticate, context: endpoints.modern, configuration: configuration)
        // Anything else under /api/v1 is a 404 in the API's own shape, not Vapor's.
        for method in [HTTPMethod.GET, .POST, .PUT, .PATCH, .DELETE] {
            api.on(method, "**") { _ -> Response in
                throw APIError(status: .notFound, code: .notFound, message: "No such endpoint.")
            }
        }

        if configuration.tutorialProtocols.contains(.chat) {
            self.registerChat(
                lobby: lobby, tutorialText: tutorialText, sendLimit: sendLimit, configuration: configuration)
        }
        if configuration.tutorialProtocols.contains(.echo) {
            self.registerEcho(relay: endpoints.echo, configuration: configuration)
        }
        endpoints.webhooks.registerHooks(on: self, logger: self.logger)
        endpoints.health.register(on: self)
    }

    /// `/chat`, the Vapor tutorial's WebSocket JSON chat (PROTOCOL.md §2).
    private func registerChat(
        lobby: Room, tutorialText: TutorialText, sendLimit: TutorialSendLimit, configuration: ServerConfiguration
    ) {
        let chatLimits = WebSocketLimits(
            maxMessageBytes: configuration.maxFrameBytes, outboundQueueBytes: configuration.outboundQueueBytes,
            keepalive: KeepaliveSweeps(interval: .seconds(Int64(configuration.pingInterval))))
        let chatRenderer = LobbyChatRenderer(announceJoins: configuration.announceJoins, tutorialText: tutorialText)
        let decoder = LobbyChatDecoder(maxMessageBytes: configuration.maxMessageBytes)
        let history = configuration.historyOnJoin
        self.get(.constant(Paths.chat)) { request in
            try request.upgradeToWebSocket(.chat, limits: chatLimits, renderer: chatRenderer) { connection in
                LobbyChatSession(
                    connection: connection, lobby: lobby, decoder: decoder, history: history, sendLimit: sendLimit)
            }
        }

    }

    /// `/echo/?id=NAME`, the verbatim relay of the star-sign tutorial (PROTOCOL.md §4).
    private func registerEcho(relay: EchoRelay, configuration: ServerConfiguration) {
        // The relay may hold two of its largest messages for a client before dropping it as too slow.
        let echoLimits = WebSocketLimits(
            maxMessageBytes: configuration.echoMaxMessageBytes,
            outboundQueueBytes: max(configuration.outboundQueueBytes, 2 * configuration.echoMaxMessageBytes),
            keepalive: KeepaliveSweeps(interval: .seconds(Int64(configuration.pingInterval))))
        let verbatim = VerbatimRenderer()
        self.get(.constant(Paths.echo)) { request in
            guard let id = request.query[String.self, at: "id"], !id.isEmpty else {
                throw Abort(.badRequest, reason: "Missing query parameter id: connect to /echo/?id=NAME.")
            }
            return try request.upgradeToWebSocket(.echo, limits: echoLimits, renderer: verbatim) { connection in
                EchoSession(connection: connection, relay: relay)
            }
        }
    }
}
