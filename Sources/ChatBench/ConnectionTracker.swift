import NIOCore

/// The open clients, how many were lost, and why connecting failed. Confined to the generator's event loop.
final class ConnectionTracker {
    /// The open clients' handlers, by client index.
    private var handlers: [BenchClientHandler?]
    /// Clients that completed the WebSocket upgrade.
    private(set) var upgraded = 0
    /// Open clients that lost their connection before the generator closed them.
    private(set) var disconnects = 0
    /// Clients the server sent a close frame to.
    private(set) var serverCloses = 0
    /// Keepalive pings the server sent, all clients together (each answered with a pong).
    private(set) var pings = 0
    /// Upgrades the server refused (a busy server's `503`) or cut off, and connects that timed out, each tried again
    /// later, as real clients do.
    private(set) var retries = 0
    /// Each client's failed tries so far.
    private var refusals: [Int]
    private var connectFailure: String?
    private var upgradeFailure: String?
    private var closingAll = false

    /// How often one client's try may fail before the run gives up.
    static let maxRefusals = 20

    init(clients: Int) {
        self.handlers = Array(repeating: nil, count: clients)
        self.refusals = Array(repeating: 0, count: clients)
    }

    /// The first reason a client could not be opened. A refused connection also fails its upgrade, so the
    /// connection error is preferred as the more telling one.
    var failure: String? {
        self.connectFailure ?? self.upgradeFailure
    }

    func opened(index: Int, handler: BenchClientHandler) {
        self.handlers[index] = handler
        self.upgraded += 1
    }

    /// Records that client `index`'s connection could not be opened; returns how long to wait before trying it
    /// again, or nil.
    ///
    /// A connect that timed out is retried as a refused upgrade is: a node whose accept queue is full drops the
    /// connection request (the kernel's listen backlog), and a real client tries again. Any other failure (the
    /// connection refused: no server there) fails the run at once.
    func connectFailed(index: Int, target: ServerURL, error: any Error) -> TimeAmount? {
        let why = "client \(index) could not connect to \(target.hostHeader) (is the server running there?): \(error)"
        guard let channelError = error as? ChannelError, case .connectTimeout = channelError else {
            self.connectFailure = self.connectFailure ?? why
            return nil
        }
        return self.retryDelay(index: index) { self.connectFailure = self.connectFailure ?? "\(why), \($0) times" }
    }

    /// Records how client `index`'s upgrade ended; returns how long to wait before trying it again, or nil.
    ///
    /// A refusal is retried: a server shedding a burst of upgrades answers `503` to what it cannot start on
    /// (`--max-pending-requests`), and a client that gave up would measure nothing.
    func upgradeFinished(index: Int, result: Result<UpgradeOutcome, any Error>) -> TimeAmount? {
        let why: String
        switch result {
        case .success(.upgraded):
            return nil
        case .success(.declined):
            why = "the server answered client \(index)'s upgrade request without switching to WebSocket (wrong path?)"
        case .failure(let error):
            why = "client \(index)'s WebSocket upgrade failed: \(error)"
        }
        return self.retryDelay(index: index) { self.upgradeFailure = self.upgradeFailure ?? "\(why), \($0) times" }
    }

    /// The wait before client `index`'s next try, with the backoff of the `ChatClient` library (``ReconnectDelay``)
    /// capped at 8 s; after ``maxRefusals`` failed tries of one client, nil, and `giveUp` records why the run fails.
    private func retryDelay(index: Int, giveUp: (Int) -> Void) -> TimeAmount? {
        self.refusals[index] += 1
        guard self.refusals[index] < Self.maxRefusals else {
            giveUp(Self.maxRefusals)
            return nil
        }
        self.retries += 1
        return ReconnectDelay.before(attempt: self.refusals[index], capMilliseconds: 8000)
    }

    func pinged() {
        self.pings += 1
    }

    func serverClosed() {
        self.serverCloses += 1
    }

    func disconnected(index: Int) {
        if self.handlers[index] != nil, !self.closingAll {
            self.disconnects += 1
        }
        self.handlers[index] = nil
    }

    /// Starts the closing handshake on every open client; the futures complete as their connections close.
    func closeAll() -> [EventLoopFuture<Void>] {
        self.closingAll = true
        return self.handlers.compactMap { $0?.close() }
    }
}

/// How a client's upgrade request ended when it did not fail.
enum UpgradeOutcome: Sendable {
    case upgraded
    case declined
}
