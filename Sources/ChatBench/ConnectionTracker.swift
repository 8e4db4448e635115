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
    private var connectFailure: String?
    private var upgradeFailure: String?
    private var closingAll = false

    init(clients: Int) {
        self.handlers = Array(repeating: nil, count: clients)
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

    func connectFailed(index: Int, target: ServerURL, error: any Error) {
        self.connectFailure =
            self.connectFailure
            ?? "client \(index) could not connect to \(target.hostHeader) (is the server running there?): \(error)"
    }

    func upgradeFinished(index: Int, result: Result<UpgradeOutcome, any Error>) {
        switch result {
        case .success(.upgraded):
            return
        case .success(.declined):
            self.upgradeFailure =
                self.upgradeFailure
                ?? "the server answered client \(index)'s upgrade request without switching to WebSocket (wrong path?)"
        case .failure(let error):
            self.upgradeFailure = self.upgradeFailure ?? "client \(index)'s WebSocket upgrade failed: \(error)"
        }
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
