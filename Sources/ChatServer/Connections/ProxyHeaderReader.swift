import Logging
import NIOCore

/// First in the pipeline of a connection on a listener behind a proxy (`--proxy-protocol`): reads the PROXY
/// protocol header (``ProxyHeader``) before anything else, even TLS, records the client it names, and only then
/// lets the connection count against its address's limits (`admit`, which may refuse it). A connection without a
/// valid header within ``deadline`` is closed unanswered: the proxy always sends one, so whatever does not came
/// around it. Removes itself once the header is read, passing on the bytes after it.
final class ProxyHeaderReader: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// How long a new connection has to send its header: a proxy sends it at once.
    static let deadline = TimeAmount.seconds(5)

    private let addresses: ClientAddresses
    private let admit: (String) -> Bool
    private let refusal: ByteBuffer?
    private let logger: Logger
    private var received: ByteBuffer?
    private var timer: Scheduled<Void>?

    /// `admit`: counts the connection under its client's address; `false` when it is over a limit, and `refusal`
    /// is sent before it is closed (none on a TLS listener: the handshake has not begun, and the client would read
    /// plain text as a broken handshake, so it is closed at once).
    init(addresses: ClientAddresses, admit: @escaping (String) -> Bool, refusal: ByteBuffer?, logger: Logger) {
        self.addresses = addresses
        self.admit = admit
        self.refusal = refusal
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let channel = context.channel
        self.timer = context.eventLoop.scheduleTask(in: Self.deadline) { channel.close(promise: nil) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.timer?.cancel()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = Self.unwrapInboundIn(data)
        if var received = self.received {
            received.writeBuffer(&bytes)
            bytes = received
        }
        switch ProxyHeader.parse(bytes.readableBytesView) {
        case .incomplete:
            self.received = bytes
        case .invalid(let reason):
            self.logger.debug("connection refused: \(reason)")
            self.received = nil
            context.close(promise: nil)
        case .header(let source, let length):
            self.received = nil
            let client = source ?? context.channel.remoteAddress?.ipAddress ?? "unknown"
            if source != nil { self.addresses.record(client, for: context.channel) }
            guard self.admit(client) else {
                let channel = context.channel
                guard let refusal = self.refusal else { return channel.close(promise: nil) }
                context.writeAndFlush(NIOAny(refusal)).whenComplete { _ in channel.close(promise: nil) }
                return
            }
            bytes.moveReaderIndex(forwardBy: length)
            if bytes.readableBytes > 0 { context.fireChannelRead(NIOAny(bytes)) }
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        }
    }
}
