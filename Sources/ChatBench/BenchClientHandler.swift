import NIOCore
import NIOWebSocket

/// What a client's frames mean to the run it belongs to: a load run's recorder and tracker (``BenchRun``), or a
/// reconnect storm's checks (``Storm``). Called on the generator's event loop.
protocol ClientEvents: AnyObject {
    /// The frame to send in answer to the server's first one (the modern protocol's `resume`), if any.
    func opening(client: Int) -> ByteBuffer?
    func received(_ payload: ByteBuffer, client: Int)
    /// A keepalive ping arrived (and is answered).
    func pinged()
    /// The server started the closing handshake.
    func serverClosed()
    /// The connection is gone, whoever closed it.
    func disconnected(client: Int)
}

/// One client's WebSocket frames: hands what it receives to its run, answers pings and the closing handshake, and
/// sends what the run gives it. Lives on the generator's event loop.
final class BenchClientHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    /// How long the server may take to answer our close frame before the connection is dropped.
    private static let closeTimeout = TimeAmount.seconds(2)

    private let index: Int
    private let events: any ClientEvents
    private var context: ChannelHandlerContext?
    private var closeSent = false
    private var openingSent = false

    init(index: Int, events: any ClientEvents) {
        self.index = index
        self.events = events
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = Self.unwrapInboundIn(data)
        switch frame.opcode {
        case .text:
            if !self.openingSent {
                self.openingSent = true
                if let opening = self.events.opening(client: self.index) { self.write(.text, opening) }
            }
            self.events.received(frame.unmaskedData, client: self.index)
        case .ping:
            self.events.pinged()
            self.write(.pong, frame.unmaskedData)
        case .connectionClose:
            if !self.closeSent {
                // The server started the closing handshake: echo its status code, as RFC 6455 asks.
                self.events.serverClosed()
                self.closeSent = true
                var data = frame.unmaskedData
                self.write(.connectionClose, data.readSlice(length: min(2, data.readableBytes)) ?? data)
            }
            context.close(promise: nil)
        default:
            break
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        self.events.disconnected(client: self.index)
        context.fireChannelInactive()
    }

    /// Sends one text frame; false when the connection is gone or closing.
    func send(_ payload: ByteBuffer) -> Bool {
        guard let context = self.context, context.channel.isActive, !self.closeSent else { return false }
        self.write(.text, payload)
        return true
    }

    /// Starts the closing handshake; the future completes once the connection is closed.
    func close() -> EventLoopFuture<Void>? {
        guard let context = self.context else { return nil }
        let channel = context.channel
        if !self.closeSent {
            self.closeSent = true
            var payload = channel.allocator.buffer(capacity: 2)
            payload.write(webSocketErrorCode: .normalClosure)
            self.write(.connectionClose, payload)
        }
        channel.eventLoop.scheduleTask(in: Self.closeTimeout) { channel.close(promise: nil) }
        return channel.closeFuture
    }

    /// Writes and flushes a masked frame: RFC 6455 requires clients to mask everything they send.
    private func write(_ opcode: WebSocketOpcode, _ data: ByteBuffer) {
        let frame = WebSocketFrame(fin: true, opcode: opcode, maskKey: .random(), data: data)
        self.context?.writeAndFlush(Self.wrapOutboundOut(frame), promise: nil)
    }
}
