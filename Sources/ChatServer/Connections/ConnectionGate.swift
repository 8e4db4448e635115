import Logging
import Metrics
import NIOConcurrencyHelpers
import NIOCore
import NIOSSL

/// Counts the open connections of the whole server and of each IP address, shared by every listener.
final class ConnectionCounts: Sendable {
    let maxTotal: Int
    let maxPerAddress: Int
    /// Counts the connections turned away.
    private let refusals: Counter
    private let state = NIOLockedValueBox((total: 0, perAddress: [String: Int]()))

    init(maxTotal: Int, maxPerAddress: Int, refusals: Counter) {
        self.maxTotal = maxTotal
        self.maxPerAddress = maxPerAddress
        self.refusals = refusals
    }

    /// Counts a new connection from `address` (its client's) until it closes; `false` when it is over a limit (it is
    /// counted all the same, and uncounted when it closes).
    func admit(_ channel: any Channel, address: String) -> Bool {
        let admitted = self.state.withLockedValue { state in
            state.total += 1
            state.perAddress[address, default: 0] += 1
            return state.total <= self.maxTotal && state.perAddress[address]! <= self.maxPerAddress
        }
        channel.closeFuture.whenComplete { _ in
            self.state.withLockedValue { state in
                state.total -= 1
                state.perAddress[address]! -= 1
                if state.perAddress[address] == 0 { state.perAddress[address] = nil }
            }
        }
        if !admitted { self.refusals.increment() }
        return admitted
    }

    /// Open connections in all (for tests and diagnostics).
    var total: Int { self.state.withLockedValue { $0.total } }
}

/// Sits first in a listening channel's pipeline and sees every accepted connection before it is set up: counts it,
/// turns it away with a short answer when it is over ``ConnectionCounts``' limits, and gives it the listener's
/// first-request deadline. With TLS it puts the TLS handler first, so that the deadline, the refusal and everything the
/// listener sets up see plain bytes (the same mechanism for HTTP and TCP). Behind it, NIO's `AcceptBackoffHandler`
/// stops accepting for a moment when the process runs out of file descriptors, instead of retrying in a busy loop.
final class ConnectionGate: ChannelInboundHandler, Sendable {
    typealias InboundIn = any Channel
    typealias InboundOut = any Channel

    private let counts: ConnectionCounts
    /// What a connection over the limit is sent before it is closed (a 503, an `err:` line).
    private let refusal: ByteBuffer
    /// How long a new connection has to send the bytes that end its first request, if it must.
    private let firstRequest: (deadline: TimeAmount, end: [UInt8])?
    /// How long a connection may send and receive nothing before it is closed, if it may not for ever.
    private let idleTimeout: TimeAmount?
    /// The certificates of a TLS listener.
    private let tls: TLSCertificates?
    /// Behind a proxy that sends the PROXY protocol (`--proxy-protocol`): where the clients' addresses go, and
    /// the log of refused headers. A connection is then counted under its client's address once its header is read.
    private let proxy: (addresses: ClientAddresses, logger: Logger)?

    init(
        counts: ConnectionCounts, refusal: String, tls: TLSCertificates?,
        proxy: (addresses: ClientAddresses, logger: Logger)? = nil, firstRequestDeadline: TimeAmount? = nil,
        firstRequestEnd: String = "", idleTimeout: TimeAmount? = nil
    ) {
        self.proxy = proxy
        self.counts = counts
        self.tls = tls
        self.refusal = ByteBuffer(string: refusal)
        self.firstRequest = firstRequestDeadline.map { ($0, Array(firstRequestEnd.utf8)) }
        self.idleTimeout = idleTimeout
    }

    /// A gate for HTTP: a 503 for connections over the limit, the first request's head within `idleTimeout`, and
    /// a connection that sends and receives nothing for `idleTimeout` (between requests, or stalled inside one)
    /// closed. This replaces Vapor's own idle timeout, whose handlers an upgraded WebSocket could not remove
    /// (``CloseWhenIdle``).
    static func http(
        counts: ConnectionCounts, tls: TLSCertificates?, proxy: (addresses: ClientAddresses, logger: Logger)?,
        idleTimeout: TimeAmount
    ) -> ConnectionGate {
        let body = "Too many connections; try again later.\n"
        let refusal =
            "HTTP/1.1 503 Service Unavailable\r\nRetry-After: 5\r\nContent-Type: text/plain; charset=utf-8\r\n"
            + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
        return ConnectionGate(
            counts: counts, refusal: refusal, tls: tls, proxy: proxy, firstRequestDeadline: idleTimeout,
            firstRequestEnd: "\r\n\r\n", idleTimeout: idleTimeout)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let child = Self.unwrapInboundIn(data)
        // Added before the listener's own set-up, on the child's event loop in submission order, so these handlers
        // come first in its pipeline.
        let tlsContext = self.tls?.context
        let counts = self.counts
        // Behind a proxy the client is known once its header is read; until then the connection is not counted.
        let admitted = self.proxy != nil || counts.admit(child, address: child.remoteAddress?.ipAddress ?? "unknown")
        let firstRequest = self.firstRequest
        let idleTimeout = self.idleTimeout
        let refusal = self.refusal
        let proxy = self.proxy
        Self.addFirst(to: child) {
            var handlers: [any ChannelHandler] = []
            if let proxy {
                handlers.append(
                    ProxyHeaderReader(
                        addresses: proxy.addresses, admit: { counts.admit(child, address: $0) },
                        refusal: tlsContext == nil ? refusal : nil, logger: proxy.logger))
            }
            if let tlsContext { handlers.append(NIOSSLServerHandler(context: tlsContext)) }
            if !admitted {
                handlers.append(RefuseConnection(answer: refusal))
                return handlers
            }
            if let idleTimeout {
                handlers += [IdleStateHandler(allTimeout: idleTimeout), CloseWhenIdle()]
            }
            if let (deadline, end) = firstRequest {
                handlers.append(FirstRequestDeadline(deadline: deadline, end: end))
            }
            return handlers
        }
        context.fireChannelRead(data)
    }

    /// How a connection sizes the buffer it reads into. A channel keeps the buffer of its reads for the next one, so
    /// NIO's default (2,048 bytes to start) is 2 KiB of every idle connection's memory; an HTTP request head, a chat
    /// frame and a TCP line fit in 512, and a connection that reads more (an upload) grows its buffer as before.
    static let receiveAllocator = AdaptiveRecvByteBufferAllocator(minimum: 64, initial: 512, maximum: 65536)

    /// Sets a new connection's receive allocator and puts handlers first in its pipeline, in order, before its
    /// set-up and its first read: at once when it shares the listener's event loop (the set-up then runs right after
    /// this), else as a task its loop runs first.
    private static func addFirst(to child: any Channel, _ make: @escaping @Sendable () -> [any ChannelHandler]) {
        let prepare: @Sendable () -> Void = {
            try? child.syncOptions?.setOption(ChannelOptions.recvAllocator, value: Self.receiveAllocator)
            try? child.pipeline.syncOperations.addHandlers(make(), position: .first)
        }
        if child.eventLoop.inEventLoop {
            prepare()
        } else {
            child.eventLoop.execute(prepare)
        }
    }

    /// Installs a gate and accept back-off in front of a listening channel. Call on its event loop.
    static func install(on listener: any Channel, _ gate: ConnectionGate) throws {
        try listener.pipeline.syncOperations.addHandler(AcceptBackoffHandler(), position: .first)
        try listener.pipeline.syncOperations.addHandler(gate, position: .first)
    }
}

/// Answers a connection over the limit and closes it.
private final class RefuseConnection: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let answer: ByteBuffer

    init(answer: ByteBuffer) {
        self.answer = answer
    }

    func channelActive(context: ChannelHandlerContext) {
        let channel = context.channel
        context.writeAndFlush(NIOAny(self.answer)).whenComplete { _ in channel.close(promise: nil) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}
}

/// Closes a connection when the `IdleStateHandler` before it says nothing was sent or received for its timeout. Ours,
/// not Vapor's (whose type is internal), so that a connection upgraded to a WebSocket can remove both: it keeps
/// itself alive with pings, and each handler left in its pipeline would cost it memory for as long as it is open.
final class CloseWhenIdle: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is IdleStateHandler.IdleStateEvent {
            context.close(mode: .all, promise: nil)
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }
}

/// Closes a connection that has not finished its first request within the deadline (slowloris: one header line
/// every few seconds would otherwise hold a connection for ever), then steps aside.
private final class FirstRequestDeadline: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let deadline: TimeAmount
    private let end: [UInt8]
    private var matched = 0
    private var timer: Scheduled<Void>?

    init(deadline: TimeAmount, end: [UInt8]) {
        self.deadline = deadline
        self.end = end
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let channel = context.channel
        self.timer = context.eventLoop.scheduleTask(in: self.deadline) { channel.close(promise: nil) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.timer?.cancel()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let bytes = Self.unwrapInboundIn(data)
        if self.matched < self.end.count {
            for byte in bytes.readableBytesView {
                self.matched = byte == self.end[self.matched] ? self.matched + 1 : (byte == self.end[0] ? 1 : 0)
                if self.matched == self.end.count { break }
            }
        }
        context.fireChannelRead(data)
        if self.matched == self.end.count {
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        }
    }
}
