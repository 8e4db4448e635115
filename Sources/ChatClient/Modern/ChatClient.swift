import AsyncHTTPClient
import ChatProtocol
import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import NIOWebSocket
import WebSocketKit

/// A client of SwiftChat's modern protocol: the HTTP API and one WebSocket for every room of the signed-in user.
///
/// ```swift
/// let client = ChatClient(server: ServerAddress("http://127.0.0.1:8080")!)
/// try await client.login(username: "ann", password: "correct horse")
/// let events = await client.connect()
/// let ack = try await client.send("hello", to: "lobby")
/// for await event in events {
///     if case .message(let message, _) = event { print(message.sender.name, message.text) }
/// }
/// ```
///
/// The connection looks after itself. It reconnects after any drop, waiting longer each time
/// (``ReconnectBackoff``), resumes every room from the last `seq` it delivered (PROTOCOL.md §8.2), and drops the
/// duplicates a replay may repeat. Sends go through an outbox: a send while offline waits, and every resend uses
/// the message's first `clientMsgID`, so the server stores it exactly once. Only a refused token stops it
/// (``ConnectionState/failed(_:)``).
public actor ChatClient {
    /// Settings that rarely change; the defaults suit an app.
    public struct Configuration: Sendable {
        /// Waits between reconnection attempts.
        public var backoff = ReconnectBackoff()
        /// How often the client pings the server; a connection with no pong by the next ping is dropped and
        /// reconnected. `nil` relies on the server's own pings (§8.7).
        public var pingInterval: Duration? = .seconds(20)
        /// How long to wait before resending after a `rate_limited` or `unavailable` answer.
        public var retryAfterTransientError: Duration = .seconds(1)
        /// The largest frame accepted from the server.
        public var maxFrameBytes = 1 << 24
        /// How the WebSocket checks the server's certificate over `wss`; `nil` uses the system's trust roots. The
        /// HTTP half uses the `HTTPClient` given to ``ChatClient/init(server:session:configuration:http:eventLoops:)``.
        public var tlsConfiguration: TLSConfiguration?
        /// Where the client logs (nothing, by default).
        public var logger = Logger(label: "swiftchat.client", factory: { _ in SwiftLogNoOpLogHandler() })

        /// The default settings.
        public init() {}
    }

    /// The server this client talks to.
    public nonisolated let server: ServerAddress
    /// The HTTP half of the protocol, for calls this type does not wrap.
    public nonisolated let api: ChatAPI
    let configuration: Configuration
    let eventLoops: any EventLoopGroup

    /// The signed-in session, if any.
    public private(set) var session: AuthSession?
    /// The connection's state now.
    public internal(set) var connectionState: ConnectionState = .idle
    /// The rooms the server said this connection follows (from the last `hello`, plus `joined`, minus `left`).
    public internal(set) var rooms: [String] = []
    /// The last `seq` delivered per room: where the next `resume` starts.
    public internal(set) var lastSeq: [String: Int64] = [:]

    var outbox = Outbox()
    var socket: WebSocket?
    /// `hello` arrived and `resume` went out: frames written now are handled.
    var socketReady = false
    /// Rooms whose `resumed` marker has not arrived yet on this connection.
    var awaitingResume: Set<String> = []
    var runTask: Task<Void, Never>?
    var subscribers: [UUID: AsyncStream<ChatEvent>.Continuation] = [:]

    /// A client for `server`; pass a `session` saved from an earlier login to skip signing in.
    public init(
        server: ServerAddress, session: AuthSession? = nil, configuration: Configuration = Configuration(),
        http: HTTPClient = ChatAPI.sharedHTTPClient,
        eventLoops: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) {
        self.server = server
        self.api = ChatAPI(server: server, http: http)
        self.session = session
        self.configuration = configuration
        self.eventLoops = eventLoops
    }

    // MARK: Session

    /// Creates an account and keeps its session.
    @discardableResult
    public func register(username: String, password: String, displayName: String? = nil) async throws -> AuthSession {
        let session = try await self.api.register(username: username, password: password, displayName: displayName)
        self.session = session
        return session
    }

    /// Signs in and keeps the session. A wrong password throws `.server(status: 401, code: .invalidCredentials)`.
    @discardableResult
    public func login(username: String, password: String) async throws -> AuthSession {
        let session = try await self.api.login(username: username, password: password)
        self.session = session
        return session
    }

    /// Revokes the token on the server, stops the connection and forgets the session.
    public func logout() async throws {
        guard let token = self.session?.token else { return }
        await self.stop()
        self.session = nil
        try await self.api.logout(token: token)
    }

    /// The session's token, or `.notSignedIn`.
    func token() throws -> String {
        guard let token = self.session?.token else { throw ChatClientError.notSignedIn }
        return token
    }

    /// Starts following room `room` from `seq` (the next connection replays what follows it). Call before
    /// ``connect()`` to resume from a position saved earlier.
    public func follow(room: String, after seq: Int64) {
        self.lastSeq[room] = seq
    }

    // MARK: Events

    /// Starts the connection (if it is not running) and returns the events from now on. Each call returns a
    /// new sequence that receives every event; it ends when the client stops, or when the task reading it is
    /// cancelled. After ``stop()`` or a refused token, calling it again starts a new connection.
    public func connect() -> AsyncStream<ChatEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: ChatEvent.self, bufferingPolicy: .unbounded)
        let id = UUID()
        continuation.onTermination = { [weak self] _ in
            Task { await self?.unsubscribe(id) }
        }
        self.subscribers[id] = continuation
        if self.runTask == nil {
            self.runTask = Task { await self.run() }
        } else {
            continuation.yield(.state(self.connectionState))
        }
        return stream
    }

    /// Closes the connection for good: pending sends fail with ``ChatClientError/stopped`` and every event
    /// sequence ends.
    ///
    /// A ``connect()`` made while this waits for the connection to end starts a new one, which this leaves alone:
    /// only the event sequences that existed when `stop()` was called end, and sends are failed only if no new
    /// connection started.
    public func stop() async {
        let running = self.runTask
        let ending = self.subscribers
        running?.cancel()
        self.runTask = nil
        self.socketReady = false
        if let socket = self.socket {
            self.socket = nil
            try? await socket.close(code: .normalClosure)
        }
        // Nothing of this connection may run after `stop()`: a server stopping its demo bot shuts down the event
        // loops the socket lives on next.
        await running?.value
        if self.runTask == nil {
            self.outbox.failAll(ChatClientError.stopped)
            self.setState(.stopped)
        }
        for (id, continuation) in ending {
            continuation.finish()
            self.subscribers[id] = nil
        }
    }

    func unsubscribe(_ id: UUID) {
        self.subscribers[id] = nil
    }

    func emit(_ event: ChatEvent) {
        for continuation in self.subscribers.values { continuation.yield(event) }
    }

    func setState(_ state: ConnectionState) {
        guard state != self.connectionState else { return }
        self.connectionState = state
        self.configuration.logger.debug("connection: \(state)")
        self.emit(.state(state))
    }
}
