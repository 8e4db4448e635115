import NIOCore

/// Sits next to the pipeline's head (or to the TLS handler) and is the only way frames go out: bytes already framed
/// by ``WebSocketFrameBytes`` reach the socket without a per-connection header, allocation or copy.
///
/// Writes through it land in the outbound queue in call order, because they all happen synchronously on the
/// channel's event loop.
final class RawFrameWriter: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private var context: ChannelHandlerContext?
    /// Whether a close frame has been sent (``WebSocketConnection/isClosing``).
    var closing = false

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    /// Queues framed bytes; the promise, if any, completes when they reach the socket. Call on the event loop.
    func write(_ bytes: ByteBuffer, promise: EventLoopPromise<Void>? = nil) {
        guard let context = self.context else {
            promise?.fail(ChannelError.ioOnClosedChannel)
            return
        }
        context.write(Self.wrapOutboundOut(bytes), promise: promise)
    }

    /// Sends what is queued. From here the flush goes straight to the head instead of through every handler;
    /// nothing above writes at all.
    func flush() {
        self.context?.flush()
    }
}
