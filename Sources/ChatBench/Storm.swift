import NIOCore

/// The clients of a reconnect storm (`--storm`), what each received, and how each comes back. Confined to the
/// generator's single event loop.
///
/// Every client follows the lobby, where one sender (the last client, on another node) sends numbered messages. Each
/// client checks the numbers it receives: the next one is a message delivered once, a smaller one a duplicate, a
/// larger one a gap of the numbers between. A client that loses its connection tries the nodes in turn, with the
/// `ChatClient` library's backoff and jitter (``ReconnectDelay``), and on each connection sends `resume` with the
/// lobby's last `seq` it has, as a real client does (PROTOCOL.md §8.2).
final class Storm: ClientEvents {
    /// The longest wait between two tries of one client, as `ChatClient`'s default.
    static let backoffCapMilliseconds = 30_000

    private struct Client {
        var handler: BenchClientHandler?
        /// The node it connects to next (an index into the URLs).
        var node: Int
        /// Tries since the connection was last open.
        var attempts = 0
        /// The lobby's latest `seq` it has: where its next `resume` starts.
        var lobbySeq: Int64?
        /// The sender's number of the last message received.
        var lastNumber: UInt64 = 0
        /// When it lost its connection, if it has not resumed since.
        var lostAt: UInt64?
    }

    private let loop: any EventLoop
    private let urls: [ServerURL]
    private let tokens: [String]
    private let sources: SourceAddresses
    private let marker: [UInt8]
    private let encoder: MessageEncoder
    private var clients: [Client]

    /// The sender: the last client, which connects to the second node and never to the first.
    var senderIndex: Int { self.clients.count - 1 }
    /// Messages sent so far; the last one's number.
    private(set) var sent: UInt64 = 0
    /// Clients whose first `resume` was answered.
    private(set) var ready = 0
    /// When the first node was killed.
    private(set) var killedAt: UInt64?
    /// Connections lost after the kill (and before it: ``unexpectedLosses``).
    private(set) var losses = 0
    private(set) var unexpectedLosses = 0
    /// Each lost connection's time from the kill to its `resumed`, in nanoseconds.
    private(set) var backAfter: [UInt64] = []
    private(set) var gaps: UInt64 = 0
    private(set) var duplicates = 0
    private(set) var refusedUpgrades = 0
    private(set) var failedConnects = 0
    private(set) var errorFrames = 0
    private(set) var incompleteResumes = 0
    private var stopping = false

    private static let latestSeq = Array(#""latestSeq":"#.utf8)
    private static let seq = Array(#""seq":"#.utf8)
    private static let incomplete = Array(#""complete":false"#.utf8)

    /// `tokens`: one per client, the sender's last. `urls[0]` is the node the storm kills.
    init(loop: any EventLoop, urls: [ServerURL], tokens: [String], sources: SourceAddresses, run: RunIdentity) {
        self.loop = loop
        self.urls = urls
        self.tokens = tokens
        self.sources = sources
        self.marker = run.marker
        self.encoder = MessageEncoder(run: run, sender: 0, textBytes: 64, room: "lobby")
        self.clients = (0..<tokens.count).map { Client(node: $0 == tokens.count - 1 ? 1 : 0) }
    }

    /// Clients that lost their connection and have not resumed since (reconnected or not).
    var waiting: Int { self.clients.count(where: { $0.lostAt != nil }) }

    /// Clients whose last message is not the last one sent.
    var behind: Int { self.clients.count(where: { $0.lastNumber != self.sent }) }

    func markKilled() {
        self.killedAt = Monotonic.now
    }

    /// Sends the next numbered message, if the sender is connected.
    func sendNext() {
        guard let handler = self.clients[self.senderIndex].handler else { return }
        if handler.send(self.encoder.message(sequence: self.sent + 1, sentNanos: Monotonic.now)) {
            self.sent += 1
        }
    }

    /// `{"type":"resume","rooms":{"lobby":N}}` from what client `index` has, or `{}` on its first connection.
    func opening(client index: Int) -> ByteBuffer? {
        let rooms = self.clients[index].lobbySeq.map { #"{"lobby":\#($0)}"# } ?? "{}"
        return ByteBuffer(string: #"{"type":"resume","rooms":\#(rooms)}"#)
    }

    func received(_ payload: ByteBuffer, client index: Int) {
        payload.withUnsafeReadableBytes { bytes in
            if ByteScan.firstIndex(of: BenchFrame.modernResumed, in: bytes, from: 0) != nil {
                self.resumed(bytes, client: index)
            } else if ByteScan.firstIndex(of: BenchFrame.modernError, in: bytes, from: 0) != nil {
                self.errorFrames += 1
            }
            var from = 0
            while let start = ByteScan.firstIndex(of: self.marker, in: bytes, from: from) {
                from = start + self.marker.count
                self.message(bytes, at: start, client: index)
            }
        }
    }

    /// A `resumed` frame: the client is back (after a loss) or ready (first connection).
    private func resumed(_ bytes: UnsafeRawBufferPointer, client index: Int) {
        if ByteScan.firstIndex(of: Self.incomplete, in: bytes, from: 0) != nil { self.incompleteResumes += 1 }
        if self.clients[index].lobbySeq == nil {
            self.clients[index].lobbySeq = ByteScan.integer(after: Self.latestSeq, in: bytes)
            self.ready += 1
        }
        if let lostAt = self.clients[index].lostAt {
            self.clients[index].lostAt = nil
            let since = self.killedAt.map { max($0, lostAt) } ?? lostAt
            self.backAfter.append(Monotonic.now - since)
        }
    }

    /// One of this run's messages, its text at `start`: checks its number and keeps its `seq`.
    private func message(_ bytes: UnsafeRawBufferPointer, at start: Int, client index: Int) {
        // The text is `bench:<run>:<sender>:<number>:<sentNanos>:…`.
        guard let (_, afterSender) = ByteScan.decimal(in: bytes, from: start + self.marker.count),
            let (number, _) = ByteScan.decimal(in: bytes, from: afterSender)
        else { return }
        // The frame's keys are sorted: the message's own `seq` is the last one before its text.
        if let seq = ByteScan.lastIndex(of: Self.seq, in: bytes, before: start).flatMap({
            ByteScan.integer(at: $0 + Self.seq.count, in: bytes)
        }) {
            self.clients[index].lobbySeq = max(self.clients[index].lobbySeq ?? 0, seq)
        }
        let last = self.clients[index].lastNumber
        if number <= last {
            self.duplicates += 1
        } else {
            self.gaps += number - last - 1
            self.clients[index].lastNumber = number
        }
    }

    func pinged() {}
    func serverClosed() {}

    /// Client `index` lost its connection: it tries again after the backoff, on the next node.
    func disconnected(client index: Int) {
        self.clients[index].handler = nil
        guard !self.stopping else { return }
        if self.killedAt == nil { self.unexpectedLosses += 1 } else { self.losses += 1 }
        if self.clients[index].lostAt == nil { self.clients[index].lostAt = Monotonic.now }
        // Spread over the other nodes: client i moves 1 + i mod (nodes - 1) along.
        let step = 1 + index % max(1, self.urls.count - 1)
        self.clients[index].node = (self.clients[index].node + step) % self.urls.count
        self.retry(index, movingOn: false)
    }

    /// Opens client `index`'s connection to its node.
    func connect(_ index: Int) {
        guard !self.stopping else { return }
        let url = self.urls[self.clients[index].node].with(path: "/api/v1/ws?token=\(self.tokens[index])")
        let bound = NIOLoopBound(self, eventLoop: self.loop)
        let source: SocketAddress?
        do {
            source = try self.sources.address(forClient: index)
        } catch {
            self.failedConnects += 1
            return
        }
        ClientConnector.open(
            url, from: source, on: self.loop,
            opened: { channel in
                let handler = BenchClientHandler(index: index, events: bound.value)
                try channel.pipeline.syncOperations.addHandler(handler)
                bound.value.opened(index, handler: handler)
            },
            upgradeFinished: { channel, result in
                if case .success(.upgraded) = result { return }
                channel.close(promise: nil)
                bound.value.refusedUpgrades += 1
                bound.value.retry(index, movingOn: false)
            },
            connectFailed: { _ in
                bound.value.failedConnects += 1
                bound.value.retry(index, movingOn: true)
            })
    }

    private func opened(_ index: Int, handler: BenchClientHandler) {
        self.clients[index].handler = handler
        self.clients[index].attempts = 0
    }

    /// Tries client `index` again after its backoff; `movingOn`: on the next node (this one did not answer).
    private func retry(_ index: Int, movingOn: Bool) {
        guard !self.stopping else { return }
        if movingOn { self.clients[index].node = (self.clients[index].node + 1) % self.urls.count }
        self.clients[index].attempts += 1
        let delay = ReconnectDelay.before(
            attempt: self.clients[index].attempts, capMilliseconds: Self.backoffCapMilliseconds)
        let bound = NIOLoopBound(self, eventLoop: self.loop)
        self.loop.scheduleTask(in: delay) { bound.value.connect(index) }
    }

    /// Closes every connection; none is tried again.
    func stop() {
        self.stopping = true
        for client in self.clients { _ = client.handler?.close() }
    }
}
