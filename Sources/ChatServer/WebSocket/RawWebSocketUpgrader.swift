import ChatCore
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL
import NIOWebSocket
import Vapor

/// The limits of one WebSocket endpoint.
struct WebSocketLimits: Sendable {
    /// The largest message (and frame) accepted; larger closes with 1009.
    var maxMessageBytes: Int
    /// Bytes that may wait to be sent before the client is dropped with 1008.
    var outboundQueueBytes: Int
    /// Pings the endpoint's connections; a peer silent for two intervals (no frame, no pong) is dropped with 1001.
    var keepalive: KeepaliveSweeps
}

/// A Vapor `Upgrader` that installs our own WebSocket handlers (``WebSocketConnectionHandler``) instead of
/// WebSocketKit's, so each endpoint controls framing, UTF-8 checks, close codes and buffering itself.
struct RawWebSocketUpgrader: Upgrader {
    let limits: WebSocketLimits
    let renderer: any EventRenderer
    let accountID: UUID?
    let metrics: ConnectionMetrics
    let log: ConnectionLogger
    let makeSession: @Sendable (WebSocketConnection) -> any WebSocketSession

    func applyUpgrade(req: Request, res: Response) -> any HTTPServerProtocolUpgrader {
        let limits = self.limits
        let renderer = self.renderer
        let accountID = self.accountID
        let metrics = self.metrics
        let log = self.log
        let makeSession = self.makeSession
        return NIOWebSocketServerUpgrader(
            maxFrameSize: limits.maxMessageBytes,
            automaticErrorHandling: true,
            shouldUpgrade: { channel, _ in channel.eventLoop.makeSucceededFuture([:]) },
            upgradePipelineHandler: { channel, _ in
                channel.eventLoop.makeCompletedFuture {
                    // The HTTP server's idle timeout is for requests; a WebSocket keeps itself alive with pings.
                    if let idle = try? channel.pipeline.syncOperations.handler(type: IdleStateHandler.self) {
                        channel.pipeline.syncOperations.removeHandler(idle, promise: nil)
                    }
                    try channel.syncOptions?.setOption(
                        .writeBufferWaterMark,
                        value: .init(low: limits.outboundQueueBytes / 2, high: limits.outboundQueueBytes))
                    let rawWriter = RawFrameWriter()
                    // Next to the head, or with TLS next to the TLS handler, which must encrypt every byte.
                    let tls = try? channel.pipeline.syncOperations.handler(type: NIOSSLServerHandler.self)
                    try channel.pipeline.syncOperations.addHandler(
                        rawWriter, position: tls.map { .after($0) } ?? .first)
                    let connection = WebSocketConnection(
                        channel: channel, renderer: renderer, rawWriter: rawWriter, accountID: accountID,
                        metrics: metrics, log: log)
                    try channel.pipeline.syncOperations.addHandlers([
                        WebSocketFrameValidator(),
                        WebSocketMessageAssembler(maxMessageBytes: limits.maxMessageBytes),
                        WebSocketConnectionHandler(
                            connection: connection, keepalive: limits.keepalive, makeSession: makeSession),
                    ])
                }
            })
    }
}

extension Request {
    /// Answers a WebSocket handshake on this request with our own handlers, or 426 if it is not one. The
    /// connection counts under `transport` in the metrics and logs with `proto` and, for an account, `user`.
    func upgradeToWebSocket(
        _ transport: ServerMetrics.Transport, limits: WebSocketLimits, renderer: any EventRenderer,
        accountID: UUID? = nil,
        username: String? = nil,
        makeSession: @escaping @Sendable (WebSocketConnection) -> any WebSocketSession
    ) throws -> Response {
        let connection = Set(self.headers[canonicalForm: "connection"].map { $0.lowercased() })
        let upgrade = self.headers.first(name: .upgrade)?.lowercased()
        guard connection.contains("upgrade"), upgrade == "websocket" else {
            throw Abort(
                .upgradeRequired, headers: ["Upgrade": "websocket"], reason: "This endpoint speaks WebSocket only.")
        }
        // NIO's upgrader would drop these without any response; answer them as RFC 6455 §4.2.2 asks.
        guard self.headers.first(name: "Sec-WebSocket-Version") == "13" else {
            throw Abort(
                .upgradeRequired, headers: ["Sec-WebSocket-Version": "13"],
                reason: "Only WebSocket version 13 is supported.")
        }
        guard let key = self.headers.first(name: "Sec-WebSocket-Key"), Data(base64Encoded: key)?.count == 16 else {
            throw Abort(.badRequest, reason: "Sec-WebSocket-Key must be 16 bytes in base64.")
        }
        let response = Response(status: .switchingProtocols)
        response.upgrader = RawWebSocketUpgrader(
            limits: limits, renderer: renderer, accountID: accountID,
            metrics: self.application.serverMetrics.connections(transport),
            log: ConnectionLogger(self.application.logger, proto: transport, user: username), makeSession: makeSession)
        return response
    }
}
