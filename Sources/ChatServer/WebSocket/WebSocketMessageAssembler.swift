import NIOCore
import NIOWebSocket

/// Joins the fragments of a WebSocket message into one frame. A message over the endpoint's byte limit, or in
/// more than ``maxFragments(forMessageBytes:)`` fragments, fails the connection with 1009.
///
/// NIO's `NIOWebSocketFrameAggregator` keeps every fragment as a frame of its own, each holding on to the read
/// buffer it came from, so a stream of empty continuation frames (6 bytes each on the wire) grew the server's
/// memory many times faster than the bytes sent without ever reaching the size limit. Here fragments are copied
/// into one buffer as they arrive, so memory is bounded by the byte limit alone, and the fragment count bounds
/// the work. An unfragmented message (the common case) passes through untouched.
final class WebSocketMessageAssembler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = WebSocketFrame

    /// One fragment per 64 bytes of the limit, and at least 64: a `/chat` message (64 KiB) may come in 1,024
    /// fragments, an `/echo` message (16 MiB) in 262,144 (Autobahn's case 9.5.1 sends 1 MiB in 16,384).
    static func maxFragments(forMessageBytes limit: Int) -> Int {
        max(64, limit / 64)
    }

    enum Failure: Error {
        /// The message's bytes and fragments are over the limit (close 1009).
        case messageTooLarge
        /// A continuation without a message started, or a new message before the last one ended (close 1002).
        case unexpectedFragment
    }

    private let maxMessageBytes: Int
    private let maxFragments: Int
    private var opcode: WebSocketOpcode?
    private var buffer: ByteBuffer?
    private var fragments = 0
    private var failed = false

    init(maxMessageBytes: Int) {
        self.maxMessageBytes = maxMessageBytes
        self.maxFragments = Self.maxFragments(forMessageBytes: maxMessageBytes)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !self.failed else { return }
        let frame = Self.unwrapInboundIn(data)
        switch frame.opcode {
        case .text, .binary:
            guard self.opcode == nil else { return self.fail(.unexpectedFragment, context: context) }
            if frame.fin {
                context.fireChannelRead(data)
            } else {
                self.opcode = frame.opcode
                self.buffer = context.channel.allocator.buffer(capacity: frame.length)
                self.fragments = 0
                self.append(frame, context: context)
            }
        case .continuation:
            guard let opcode = self.opcode else { return self.fail(.unexpectedFragment, context: context) }
            self.append(frame, context: context)
            if frame.fin, !self.failed, let buffer = self.buffer {
                self.opcode = nil
                self.buffer = nil
                context.fireChannelRead(Self.wrapInboundOut(WebSocketFrame(fin: true, opcode: opcode, data: buffer)))
            }
        default:
            // Control frames may come between fragments and are never fragmented themselves.
            context.fireChannelRead(data)
        }
    }

    private func append(_ fragment: WebSocketFrame, context: ChannelHandlerContext) {
        self.fragments += 1
        guard self.fragments <= self.maxFragments,
            (self.buffer?.readableBytes ?? 0) + fragment.length <= self.maxMessageBytes
        else { return self.fail(.messageTooLarge, context: context) }
        var payload = fragment.unmaskedData
        self.buffer?.writeBuffer(&payload)
    }

    private func fail(_ failure: Failure, context: ChannelHandlerContext) {
        self.failed = true
        self.buffer = nil
        context.fireErrorCaught(failure)
    }
}
