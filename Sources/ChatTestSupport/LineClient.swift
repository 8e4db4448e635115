import NIOCore
import NIOPosix
import NIOSSL

/// A TCP client of the text protocol, as `nc` or the DogeChat app would be: writes raw bytes, reads lines.
public final class LineClient: Sendable {
    private let channel: any Channel
    /// Every line received, without its `\n`.
    public let lines: Inbox<String>

    private init(channel: any Channel, lines: Inbox<String>) {
        self.channel = channel
        self.lines = lines
    }

    /// Connects, over TLS when given a client context (checked against `host`), from the local address `source`
    /// when given (any of 127.0.0.0/8 on loopback, to stand for several client machines).
    public static func connect(
        host: String, port: Int, tls: NIOSSLContext? = nil, source: String? = nil
    ) async throws -> LineClient {
        let lines = Inbox<String>()
        var bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
        if let source { bootstrap = bootstrap.bind(to: try SocketAddress(ipAddress: source, port: 0)) }
        let channel =
            try await bootstrap
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let tls {
                        try channel.pipeline.syncOperations.addHandler(
                            NIOSSLClientHandler(context: tls, serverHostname: host.first?.isNumber == true ? nil : host)
                        )
                    }
                    try channel.pipeline.syncOperations.addHandler(LineCollector(lines: lines))
                }
            }
            .connect(host: host, port: port)
            .get()
        return LineClient(channel: channel, lines: lines)
    }

    /// Writes the bytes as they are: add `\n` yourself, or leave it out as the DogeChat client does.
    public func write(_ text: String) async throws {
        try await self.channel.writeAndFlush(ByteBuffer(string: text))
    }

    public func write(bytes: [UInt8]) async throws {
        try await self.channel.writeAndFlush(ByteBuffer(bytes: bytes))
    }

    /// The next line, or a thrown error naming what was expected if none arrives in time.
    public func nextLine(timeout: Duration = TestDeadline.reply) async throws -> String {
        guard let line = await self.lines.next(timeout: timeout) else {
            throw TestClientError("no line received within \(timeout)")
        }
        return line
    }

    /// Reads lines until one equals `expected`, returning those skipped.
    @discardableResult
    public func waitForLine(_ expected: String, timeout: Duration = TestDeadline.reply) async throws -> [String] {
        var skipped: [String] = []
        while true {
            guard let line = await self.lines.next(timeout: timeout) else {
                throw TestClientError("never received \"\(expected)\"; got \(skipped)")
            }
            if line == expected { return skipped }
            skipped.append(line)
        }
    }

    public func close() async {
        try? await self.channel.close()
    }

    /// Closes with a TCP reset instead of a FIN, as a crashed client would.
    public func reset() async {
        try? await (self.channel as? any SocketOptionProvider)?.setSoLinger(linger(l_onoff: 1, l_linger: 0)).get()
        try? await self.channel.close()
    }

    /// Whether the server closed the connection.
    public var isClosedByServer: Bool { self.lines.isFinished }
}

private final class LineCollector: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let lines: Inbox<String>
    private var partial: [UInt8] = []

    init(lines: Inbox<String>) {
        self.lines = lines
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        self.partial += Self.unwrapInboundIn(data).readableBytesView
        while let newline = self.partial.firstIndex(of: UInt8(ascii: "\n")) {
            self.lines.push(String(decoding: self.partial[..<newline], as: UTF8.self))
            self.partial.removeSubrange(...newline)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        self.lines.finish()
    }
}
