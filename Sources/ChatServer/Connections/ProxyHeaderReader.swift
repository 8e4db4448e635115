import Logging
import NIOCore

/// First in the pipeline of a connection on a listener behind a proxy (`--proxy-protocol`): reads the PROXY
/// protocol header (``ProxyHeader``) before anything else, even TLS, records the client it names, and only then
/// lets the connection count against its address's limits (`admit`, which may refuse it). A connection without a
/// valid header within ``deadline`` is closed unanswered: the proxy always sends one, so whatever does not came
/// around it. Removes itself once the header is read, passing on the bytes after it.
///
/// One exception: a connection this machine opened to the node's own address (the demo bot, a health check run on
/// the node itself) may come without a header, and counts under its own address. Only this machine can open one: its
/// source is the address it was accepted on, or this machine's loopback address when the node listens on a loopback
/// address (there the kernel picks 127.0.0.1 as the source, whichever 127.x.x.x the node is on). A header, when such
/// a connection sends one, is read as any other.
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
    /// Whether the connection may come without a header: it was opened from this machine (see above).
    private var fromThisMachine = false

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
        self.fromThisMachine = Self.isFromThisMachine(peer: channel.remoteAddress, local: channel.localAddress)
        self.timer = context.eventLoop.scheduleTask(in: Self.deadline) { channel.close(promise: nil) }
    }

    /// Whether a connection from `peer`, accepted on `local`, was opened by this machine.
    static func isFromThisMachine(peer: SocketAddress?, local: SocketAddress?) -> Bool {
        guard let peer = peer?.ipAddress, let local = local?.ipAddress else { return false }
        func isLoopback(_ address: String) -> Bool {
            address.hasPrefix("127.") || address == "::1" || address.hasPrefix("::ffff:127.")
        }
        return peer == local || (isLoopback(local) && ["127.0.0.1", "::1", "::ffff:127.0.0.1"].contains(peer))
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
        case .invalid where self.fromThisMachine:
            self.received = nil
            self.pass(bytes, from: context.channel.remoteAddress?.ipAddress ?? "unknown", context: context)
        case .invalid(let reason):
            self.logger.debug("connection refused: \(reason)")
            self.received = nil
            context.close(promise: nil)
        case .header(let source, let length):
            self.received = nil
            let client = source ?? context.channel.remoteAddress?.ipAddress ?? "unknown"
            if source != nil { self.addresses.record(client, for: context.channel) }
            bytes.moveReaderIndex(forwardBy: length)
            self.pass(bytes, from: client, context: context)
        }
    }

    /// Counts the connection under `client` (or refuses it), then hands on what followed the header and leaves.
    private func pass(_ bytes: ByteBuffer, from client: String, context: ChannelHandlerContext) {
        guard self.admit(client) else {
            let channel = context.channel
            guard let refusal = self.refusal else { return channel.close(promise: nil) }
            context.writeAndFlush(NIOAny(refusal)).whenComplete { _ in channel.close(promise: nil) }
            return
        }
        if bytes.readableBytes > 0 { context.fireChannelRead(NIOAny(bytes)) }
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }
}
