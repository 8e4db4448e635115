import Metrics
import NIOCore
import NIOWebSocket

/// Speaks RFC 6455 for one upgraded connection and hands complete messages to its ``WebSocketSession``.
///
/// It reads the socket's bytes itself: a ``WebSocketFrameParser`` cuts them into frames (over the limit → 1009,
/// malformed control frames → 1002), ``WebSocketFrameValidator`` checks each (reserved bits and opcodes, a missing
/// mask → 1002) and a ``WebSocketMessageAssembler`` joins fragments. Below it in the pipeline is only the
/// ``RawFrameWriter`` every frame goes out through (``RawWebSocketUpgrader``). This handler answers pings, runs the
/// closing handshake, checks that text is UTF-8 (else 1007), and closes with 1012 when the server shuts down. One
/// handler where NIO's stack had five: each handler in a pipeline costs an idle connection its context and its
/// object (BENCHMARKS.md, "Idle memory").
///
/// Pongs go out through the connection's bounded outbound queue like every other frame, and a peer with more than
/// ``maxPongsWaiting`` pongs not yet taken by its socket (it sends pings and never reads) is dropped with 1008,
/// instead of growing the queue.
///
/// We use this instead of WebSocketKit (behind `app.webSocket`) because WebSocketKit replaces invalid UTF-8
/// instead of failing with 1007, and because a connection here costs only its channel and these handlers.
final class WebSocketConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let connection: WebSocketConnection
    private let keepalive: KeepaliveSweeps
    /// Used once, when the handler is added, then dropped: the closure holds what the endpoint's sessions share.
    private var makeSession: ((WebSocketConnection) -> any WebSocketSession)?
    private var session: (any WebSocketSession)?
    /// The sweep this connection is in, from `handlerAdded` until it closes.
    private var sweep: KeepaliveSweep?
    private var lastHeard = NIODeadline.now()
    private var pongsWaiting = 0
    private var parser: WebSocketFrameParser
    private var assembler: WebSocketMessageAssembler
    /// Set when a frame failed the connection: nothing more is read.
    private var failed = false

    /// RFC 6455's 1012, "service restart": the close code of a shutdown, telling clients to reconnect (to another
    /// node behind a load balancer, or to this one when it is back).
    static let serviceRestart = WebSocketErrorCode(codeNumber: 1012)

    /// Pongs that may wait for the peer's socket to take them.
    static let maxPongsWaiting = 16

    init(
        connection: WebSocketConnection, maxMessageBytes: Int, keepalive: KeepaliveSweeps,
        makeSession: @escaping (WebSocketConnection) -> any WebSocketSession
    ) {
        self.connection = connection
        self.parser = WebSocketFrameParser(maxFrameBytes: maxMessageBytes)
        self.assembler = WebSocketMessageAssembler(maxMessageBytes: maxMessageBytes)
        self.keepalive = keepalive
        self.makeSession = makeSession
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.connection.metrics.open.increment()
        self.session = self.makeSession?(self.connection)
        self.makeSession = nil
        let sweep = self.keepalive.sweep(on: context.eventLoop)
        sweep.add(self)
        self.sweep = sweep
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !self.failed else { return }
        self.lastHeard = .now()
        do {
            try self.parser.parse(Self.unwrapInboundIn(data)) { received in
                try WebSocketFrameValidator.check(received)
                if let frame = try self.assembler.take(received, allocator: context.channel.allocator) {
                    self.handle(frame, context: context)
                }
                return !self.failed
            }
        } catch {
            self.fail(error)
        }
    }

    /// A whole message or a control frame.
    private func handle(_ frame: WebSocketFrame, context: ChannelHandlerContext) {
        switch frame.opcode {
        case .text:
            guard !self.connection.isClosing else { return }
            let bytes = frame.unmaskedData
            guard let text = bytes.validatedUTF8() else {
                self.connection.close(
                    .dataInconsistentWithMessage, reason: "text is not valid UTF-8", waitForPeer: false)
                return
            }
            self.session?.didReceive(.text(text, bytes: bytes))
        case .binary:
            guard !self.connection.isClosing else { return }
            self.session?.didReceive(.binary(frame.unmaskedData))
        case .ping:
            guard !self.connection.isClosing else { return }
            guard self.pongsWaiting < Self.maxPongsWaiting else {
                self.connection.evict(.pongBacklog, reason: "pings sent faster than pongs are read")
                return
            }
            self.pongsWaiting += 1
            let loopBound = NIOLoopBound(self, eventLoop: context.eventLoop)
            self.connection.sendPong(frame.unmaskedData).whenComplete { _ in loopBound.value.pongsWaiting -= 1 }
        case .pong:
            break
        case .connectionClose:
            self.receivedClose(frame.unmaskedData, context: context)
        default:
            self.connection.close(.protocolError, waitForPeer: false)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ChannelShouldQuiesceEvent {
            self.connection.close(Self.serviceRestart, reason: "server is restarting; reconnect", waitForPeer: true)
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    /// An error of the pipeline (the socket's, say) fails the connection.
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        self.fail(error)
    }

    /// Fails the connection (RFC 6455 §7.1.7) with the close code that names what went wrong, once.
    private func fail(_ error: any Error) {
        guard !self.failed else { return }
        self.failed = true
        let code: WebSocketErrorCode =
            switch error {
            case WebSocketFrameParser.Failure.tooLarge, WebSocketMessageAssembler.Failure.messageTooLarge:
                .messageTooLarge
            case WebSocketFrameParser.Failure.malformedControlFrame,
                WebSocketMessageAssembler.Failure.unexpectedFragment,
                is WebSocketFrameValidator.ProtocolViolation:
                .protocolError
            default:
                .unexpectedServerError
            }
        self.connection.close(code, waitForPeer: false)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.leaveSweep()
        self.connection.metrics.open.decrement()
    }

    func channelInactive(context: ChannelHandlerContext) {
        self.leaveSweep()
        self.session?.didClose()
        self.session = nil
        context.fireChannelInactive()
    }

    /// Called by the event loop's ``KeepaliveSweep`` every ping interval: a peer silent since `silentSince` (no
    /// frame, no pong for two intervals) is dropped with 1001, any other is pinged. This is the idle timeout of every
    /// WebSocket endpoint: a live client answers pings by itself, a dead one is let go.
    func keepalive(silentSince: NIODeadline) {
        if self.lastHeard < silentSince {
            self.leaveSweep()
            self.connection.close(.goingAway, reason: "no answer to pings", waitForPeer: false)
        } else {
            self.connection.sendControl(.ping, payload: ByteBuffer(string: "keepalive"))
        }
    }

    private func leaveSweep() {
        self.sweep?.remove(self)
        self.sweep = nil
    }

    /// The closing handshake. A close we started is complete when the peer's arrives; a close the peer started
    /// is answered with the same status code, unless its frame is malformed.
    private func receivedClose(_ payload: ByteBuffer, context: ChannelHandlerContext) {
        if self.connection.isClosing {
            context.close(promise: nil)
            return
        }
        switch CloseFrameCheck.check(payload) {
        case .valid(let code):
            self.connection.close(code ?? .normalClosure, waitForPeer: false)
        case .invalid(let code):
            self.connection.close(code, waitForPeer: false)
        }
    }
}

extension ByteBuffer {
    /// The readable bytes as a `String`, or `nil` if they are not valid UTF-8.
    func validatedUTF8() -> String? {
        self.withUnsafeReadableBytes { raw in
            String(validating: raw.assumingMemoryBound(to: UInt8.self), as: UTF8.self)
        }
    }
}
