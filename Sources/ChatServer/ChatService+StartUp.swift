import ChatClient
import ChatPersistence
import DemoBot
import Logging
import NIOCore
import NIOSSL
import Vapor

/// The steps of ``ChatService/start(_:logger:time:)`` that set up one part each.
extension ChatService {
    /// The TLS certificate and key, read before anything starts: a missing or mismatched file stops start-up with a
    /// message naming it. `nil` without `--tls-certificate`.
    static func certificates(_ configuration: ServerConfiguration) throws -> TLSCertificates? {
        guard !configuration.tlsCertificate.isEmpty else { return nil }
        return try TLSCertificates(certificatePath: configuration.tlsCertificate, keyPath: configuration.tlsKey)
    }

    /// `/metrics` on a listener of its own (`--metrics`); `nil` when it is off.
    static func startMetrics(
        _ configuration: ServerConfiguration, metrics: ServerMetrics, group: any EventLoopGroup, logger: Logger
    ) async throws -> MetricsEndpoint? {
        guard configuration.metrics else { return nil }
        let endpoint: MetricsEndpoint
        do {
            endpoint = try await MetricsEndpoint.start(
                host: configuration.metricsHost, port: configuration.metricsPort, group: group, metrics: metrics)
        } catch {
            throw ChatServiceError.metricsListener(
                host: configuration.metricsHost, port: configuration.metricsPort, reason: "\(error)")
        }
        logger.notice(
            "Prometheus metrics on http://\(configuration.metricsHost):\(endpoint.port ?? configuration.metricsPort)/metrics"
        )
        return endpoint
    }

    /// The demo bot (`--demo-bot`), a client of this server at `localURL`, on one node at a time; `nil` when off.
    static func startDemoBot(
        _ configuration: ServerConfiguration, at localURL: String, tls: TLSCertificates?, account: DemoBotAccount,
        storage: any ServerStorage, group: any EventLoopGroup, logger: Logger
    ) async -> OneNodeRun? {
        guard configuration.demoBot, let address = ServerAddress(localURL) else { return nil }
        return await storage.runOnOneNode(
            EchoBot(
                server: address, tls: tls.map { _ in Self.selfTLS }, eventLoops: group, logger: logger,
                token: { try await account.token(renew: $0) }))
    }

    /// How the demo bot reaches its own server over TLS: on the loopback address, which no certificate names, so the
    /// certificate is not checked (the bot talks to its own process; nothing else is on that path).
    private static let selfTLS: TLSConfiguration = {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.certificateVerification = .none
        return configuration
    }()
}

extension Application {
    /// The HTTP server's middleware and settings: Vapor's own request log is replaced by one that never logs a query
    /// string (tokens travel there), the web client is served, and Vapor's idle timeout is off (the connection gate
    /// sets ours, which upgraded WebSockets can remove).
    func configureHTTP(_ configuration: ServerConfiguration, readiness: Readiness, logger: Logger) {
        self.middleware = Middlewares()
        self.middleware.use(readiness.requests)
        self.middleware.use(AccessLogMiddleware(logger: logger, level: configuration.accessLog ? .info : .debug))
        self.middleware.use(ErrorMiddleware.default(environment: self.environment))
        self.serveWebClient(from: configuration.webRoot)
        self.http.server.configuration.hostname = configuration.host
        self.http.server.configuration.port = configuration.port
        // Thousands of clients may connect at once (a reconnect storm, a benchmark); the kernel caps this.
        self.http.server.configuration.backlog = 4096
        self.http.server.configuration.idleTimeout = nil
        // Vapor's own "Server started" notice would repeat the listener line ChatService prints.
        var httpLogger = logger
        httpLogger.logLevel = max(logger.logLevel, .warning)
        self.http.server.configuration.logger = httpLogger
    }

    /// Starts the HTTP listener with the connection gate in front of it: the connection limits, TLS, and the
    /// first-request and idle deadlines.
    func startHTTP(
        _ configuration: ServerConfiguration, connections: ConnectionCounts, tls: TLSCertificates?, logger: Logger
    ) async throws {
        try await ChatServiceError.naming("--port", host: configuration.host, port: configuration.port) {
            try await self.server.start(address: .hostname(configuration.host, port: configuration.port))
        }
        guard let listener = self.http.server.shared.listeningChannel else {
            throw ChatServiceError.connectionLimitsUnavailable
        }
        let gate = ConnectionGate.http(
            counts: connections, tls: tls,
            proxy: configuration.proxyProtocol ? (self.clientAddresses, logger) : nil,
            idleTimeout: .seconds(Int64(configuration.idleTimeout)))
        try await listener.eventLoop.submit { try ConnectionGate.install(on: listener, gate) }.get()
    }
}
