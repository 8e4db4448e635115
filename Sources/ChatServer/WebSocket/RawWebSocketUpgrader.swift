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
    let pipeline: WebSocketPipelineUpgrader

    func applyUpgrade(req: Request, res: Response) -> any HTTPServerProtocolUpgrader {
        self.pipeline
    }
}

/// The handshake as NIO's `NIOWebSocketServerUpgrader` answers it, and a pipeline of our own: our ``RawFrameWriter``
/// and ``WebSocketConnectionHandler``, which parses frames itself, nothing else. (NIO's upgrader would add its frame
/// decoder and its frame encoder, which cannot be removed, though every frame we send is already framed.)
struct WebSocketPipelineUpgrader: HTTPServerProtocolUpgrader, Sendable {
    let limits: WebSocketLimits
    let renderer: any EventRenderer
    let accountID: UUID?
    let metrics: ConnectionMetrics
    let log: ConnectionLogger
    let makeSession: @Sendable (WebSocketConnection) -> any WebSocketSession

    /// Answers the handshake (`Sec-WebSocket-Accept`); its own `upgrade` is not used. One for every upgrade: it holds
    /// nothing of a connection.
    private static let handshake = NIOWebSocketServerUpgrader(
        shouldUpgrade: { channel, _ in channel.eventLoop.makeSucceededFuture([:]) },
        upgradePipelineHandler: { channel, _ in channel.eventLoop.makeSucceededVoidFuture() })

    var supportedProtocol: String { Self.handshake.supportedProtocol }
    var requiredUpgradeHeaders: [String] { Self.handshake.requiredUpgradeHeaders }

    func buildUpgradeResponse(
        channel: any Channel, upgradeRequest: HTTPRequestHead, initialResponseHeaders: HTTPHeaders
    ) -> EventLoopFuture<HTTPHeaders> {
        Self.handshake.buildUpgradeResponse(
            channel: channel, upgradeRequest: upgradeRequest, initialResponseHeaders: initialResponseHeaders)
    }

    func upgrade(context: ChannelHandlerContext, upgradeRequest: HTTPRequestHead) -> EventLoopFuture<Void> {
        let channel = context.channel
        return channel.eventLoop.makeCompletedFuture {
            // The HTTP server's idle timeout is for requests; a WebSocket keeps itself alive with pings.
            if let idle = try? channel.pipeline.syncOperations.handler(type: IdleStateHandler.self) {
                channel.pipeline.syncOperations.removeHandler(idle, promise: nil)
            }
            if let close = try? channel.pipeline.syncOperations.handler(type: CloseWhenIdle.self) {
                channel.pipeline.syncOperations.removeHandler(close, promise: nil)
            }
            try channel.syncOptions?.setOption(
                .writeBufferWaterMark,
                value: .init(low: self.limits.outboundQueueBytes / 2, high: self.limits.outboundQueueBytes))
            let rawWriter = RawFrameWriter()
            // Next to the head, or with TLS next to the TLS handler, which must encrypt every byte.
            let tls = try? channel.pipeline.syncOperations.handler(type: NIOSSLServerHandler.self)
            try channel.pipeline.syncOperations.addHandler(rawWriter, position: tls.map { .after($0) } ?? .first)
            let connection = WebSocketConnection(
                channel: channel, renderer: self.renderer, rawWriter: rawWriter, accountID: self.accountID,
                metrics: self.metrics, log: self.log)
            try channel.pipeline.syncOperations.addHandler(
                WebSocketConnectionHandler(
                    connection: connection, maxMessageBytes: self.limits.maxMessageBytes,
                    keepalive: self.limits.keepalive, makeSession: self.makeSession))
        }
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
            pipeline: WebSocketPipelineUpgrader(
                limits: limits, renderer: renderer, accountID: accountID,
                metrics: self.application.serverMetrics.connections(transport),
                log: ConnectionLogger(self.application.logger, proto: transport, user: username),
                makeSession: makeSession))
        return response
    }
}
