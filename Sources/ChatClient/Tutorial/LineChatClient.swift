import ChatProtocol
import NIOCore
import NIOPosix

/// A line from the TCP text protocol's server (PROTOCOL.md §2.3).
public enum LineChatEvent: Sendable, Hashable {
    /// `NAME has joined`.
    case joined(String)
    /// `NAME has left`.
    case left(String)
    /// `NAME:TEXT`.
    case message(name: String, text: String)
    /// `err:REASON`: the server refused my last command; the connection stays open.
    case rejected(String)
    /// A line that fits none of the above.
    case other(String)
    /// The server closed the connection.
    case closed

    /// Reads one line (without its `\n`). Names never contain `:` (§2.2), so a line with a colon is a message,
    /// except `err:`, which the protocol reserves (a user named `err` reads as an error: the protocol's own
    /// ambiguity).
    public init(line: String) {
        if line.hasPrefix("err:") {
            self = .rejected(String(line.dropFirst(4)))
        } else if let colon = line.firstIndex(of: ":") {
            self = .message(name: String(line[..<colon]), text: String(line[line.index(after: colon)...]))
        } else if line.hasSuffix(" has joined") {
            self = .joined(String(line.dropLast(" has joined".count)))
        } else if line.hasSuffix(" has left") {
            self = .left(String(line.dropLast(" has left".count)))
        } else {
            self = .other(line)
        }
    }
}

/// A client of the TCP text protocol (DogeChat, `nc`; PROTOCOL.md §2): `iam:NAME`, `msg:TEXT`, and one line per
/// event back. Lines are reassembled however the server's bytes are split.
public final class LineChatClient: Sendable {
    /// Everything the server sends, one event per line; ends after ``LineChatEvent/closed``.
    public let events: AsyncStream<LineChatEvent>
    private let channel: any Channel

    private init(events: AsyncStream<LineChatEvent>, channel: any Channel) {
        self.events = events
        self.channel = channel
    }

    /// Connects and, with a `name`, joins the lobby with `iam:NAME`.
    public static func connect(
        host: String, port: Int, name: String?, eventLoops: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) async throws -> LineChatClient {
        let (events, continuation) = AsyncStream.makeStream(of: LineChatEvent.self, bufferingPolicy: .unbounded)
        let channel: any Channel
        do {
            channel = try await ClientBootstrap(group: eventLoops)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(LineEventHandler(continuation: continuation))
                    }
                }
                .connect(host: host, port: port)
                .get()
        } catch {
            continuation.finish()
            throw ChatClientError.unreachable(String(describing: error))
        }
        let client = LineChatClient(events: events, channel: channel)
        if let name { try await client.rename(to: name) }
        return client
    }

    /// `iam:NAME`: joins, or renames.
    public func rename(to name: String) async throws {
        try await self.write("iam:\(Self.oneLine(name))\n")
    }

    /// `msg:TEXT`. Line breaks inside `text` become spaces, as they would end the command.
    public func send(_ text: String) async throws {
        try await self.write("msg:\(Self.oneLine(text))\n")
    }

    /// Writes raw text as it is.
    public func write(_ text: String) async throws {
        do {
            try await self.channel.writeAndFlush(ByteBuffer(string: text))
        } catch {
            throw ChatClientError.unreachable(String(describing: error))
        }
    }

    /// Closes the connection.
    public func close() async {
        try? await self.channel.close()
    }

    static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }
}

/// Splits the bytes into lines on the event loop and forwards each as an event.
private final class LineEventHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let continuation: AsyncStream<LineChatEvent>.Continuation
    private var splitter = LineSplitter()

    init(continuation: AsyncStream<LineChatEvent>.Continuation) {
        self.continuation = continuation
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = Self.unwrapInboundIn(data)
        for line in self.splitter.append(buffer.readableBytesView) where !line.isEmpty {
            self.continuation.yield(LineChatEvent(line: line))
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        if let rest = self.splitter.finish(), !rest.isEmpty { self.continuation.yield(LineChatEvent(line: rest)) }
        self.continuation.yield(.closed)
        self.continuation.finish()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
