import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

/// Opens the clients: TCP connect, then the HTTP upgrade to WebSocket, at most `connectRate` new connections a
/// second so that a burst of SYNs does not overflow the server's listen backlog. An upgrade the server refuses, or a
/// connect that times out, is tried again after a backoff (``ConnectionTracker``).
struct ClientConnector: Sendable {
    /// How long the upgrades may go on without one more completing, once every connection has been started.
    private static let upgradeTimeoutNanos: UInt64 = 30_000_000_000
    /// The largest frame accepted from the server; its messages are at most a few KiB.
    private static let maxFrameSize = 1 << 16

    let target: ServerTargets
    let sources: SourceAddresses
    let run: BenchRunHandle
    let connectRate: Int
    let progress: ProgressLog

    /// Opens the run's slice of clients and returns once all are upgraded; throws on the first failure.
    func connectAll() async throws {
        let slice = try await self.run.read { $0.slice }
        let count = slice.count
        let start = Monotonic.now
        var started = 0
        var lastReport = start
        // When the last client was started or the last upgrade completed, whichever came later.
        var lastProgress = start
        var lastUpgraded = 0
        while true {
            let now = Monotonic.now
            let due = min(count, Int(Double(now - start) / 1e9 * Double(self.connectRate)) + 1)
            while started < due {
                try self.connect(index: started, global: slice.global(started))
                started += 1
                lastProgress = now
            }
            let (upgraded, retries, failure) = try await self.run.read {
                ($0.tracker.upgraded, $0.tracker.retries, $0.tracker.failure)
            }
            if let failure {
                throw BenchError.connectFailed(failure)
            }
            if upgraded == count {
                if retries > 0 { self.progress.say("\(retries) refused upgrades were tried again") }
                return
            }
            if upgraded != lastUpgraded {
                lastUpgraded = upgraded
                lastProgress = now
            }
            if started == count, now - lastProgress > Self.upgradeTimeoutNanos {
                throw BenchError.upgradeTimeout(upgraded: upgraded, total: count)
            }
            if now - lastReport >= 1_000_000_000 {
                self.progress.say("\(upgraded) of \(count) clients connected (\(retries) refused upgrades retried)")
                lastReport = now
            }
            try await Task.sleep(nanoseconds: 10_000_000)
        }
    }

    /// Opens the client with index `index` in this process's slice, `global` in the run.
    private func connect(index: Int, global: Int) throws {
        let run = self.run
        let target = self.target.forClient(global)
        Self.open(
            target, from: try self.sources.address(forClient: global), on: run.loop,
            opened: { channel in
                let handler = run.bound.value.makeHandler(index: index)
                try channel.pipeline.syncOperations.addHandler(handler)
                run.bound.value.clientOpened(index: index, handler: handler)
            },
            upgradeFinished: { channel, result in
                guard let delay = run.bound.value.tracker.upgradeFinished(index: index, result: result) else { return }
                channel.close(promise: nil)
                run.loop.scheduleTask(in: delay) { self.retry(index: index, global: global) }
            },
            connectFailed: { error in
                guard let delay = run.bound.value.tracker.connectFailed(index: index, target: target, error: error)
                else { return }
                run.loop.scheduleTask(in: delay) { self.retry(index: index, global: global) }
            })
    }

    /// Connects to `target` (from `source`, or the kernel's choice) and asks for the WebSocket upgrade. `opened`
    /// installs the client's handler once upgraded; `upgradeFinished` learns how the upgrade ended, `connectFailed`
    /// that the connection could not be opened: each try ends in exactly one of the two (a connection that never
    /// opened also fails its upgrade, and a client told twice would try again twice, and hold two connections). All
    /// three run on `loop`.
    static func open(
        _ target: ServerURL, from source: SocketAddress?, on loop: any EventLoop,
        opened: @escaping @Sendable (any Channel) throws -> Void,
        upgradeFinished: @escaping @Sendable (any Channel, Result<UpgradeOutcome, any Error>) -> Void,
        connectFailed: @escaping @Sendable (any Error) -> Void
    ) {
        var bootstrap = ClientBootstrap(group: loop)
        if let source { bootstrap = bootstrap.bind(to: source) }
        // Set by the channel's initializer, which runs before the connection is made. Made empty, so that it may be
        // made off the loop (`connectAll` starts clients from a task; retries start them on the loop).
        let upgrade = NIOLoopBoundBox.makeEmptyBox(valueType: EventLoopFuture<UpgradeOutcome>.self, eventLoop: loop)
        bootstrap =
            bootstrap
            .channelOption(.tcpOption(.tcp_nodelay), value: 1)
            .connectTimeout(.seconds(10))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    upgrade.value = try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(
                        configuration: Self.pipelineConfiguration(target: target, opened: opened))
                }
            }
        let connected =
            target.address.map { bootstrap.connect(to: $0) } ?? bootstrap.connect(host: target.host, port: target.port)
        connected.whenComplete { result in
            switch result {
            case .success(let channel):
                upgrade.value?.whenComplete { upgradeFinished(channel, $0) }
            case .failure(let error):
                connectFailed(error)
            }
        }
    }

    /// Tries client `index`'s connection again; a failure to start it counts as the connection's failure.
    private func retry(index: Int, global: Int) {
        do {
            try self.connect(index: index, global: global)
        } catch {
            // Not a timeout (a source address that cannot be bound): the run fails, so no delay comes back.
            _ = self.run.bound.value.tracker.connectFailed(
                index: index, target: self.target.forClient(global), error: error)
        }
    }

    /// The HTTP client pipeline that asks for the upgrade and, on success, calls `opened` on the channel's event
    /// loop to install the client's handler.
    private static func pipelineConfiguration(
        target: ServerURL, opened: @escaping @Sendable (any Channel) throws -> Void
    ) -> NIOUpgradableHTTPClientPipelineConfiguration<UpgradeOutcome> {
        let upgrader = NIOTypedWebSocketClientUpgrader<UpgradeOutcome>(maxFrameSize: Self.maxFrameSize) { channel, _ in
            channel.eventLoop.makeCompletedFuture {
                try opened(channel)
                return .upgraded
            }
        }
        var headers = HTTPHeaders()
        headers.add(name: "Host", value: target.hostHeader)
        headers.add(name: "Content-Length", value: "0")
        let request = HTTPRequestHead(version: .http1_1, method: .GET, uri: target.path, headers: headers)
        let upgrade = NIOTypedHTTPClientUpgradeConfiguration<UpgradeOutcome>(
            upgradeRequestHead: request,
            upgraders: [upgrader],
            notUpgradingCompletionHandler: { channel in
                channel.close(promise: nil)
                return channel.eventLoop.makeSucceededFuture(.declined)
            }
        )
        var configuration = NIOUpgradableHTTPClientPipelineConfiguration(upgradeConfiguration: upgrade)
        // The server writes the history right after its 101 response, often in the same TCP segment; the
        // default strategy would drop those bytes along with the HTTP decoder.
        configuration.leftOverBytesStrategy = .forwardBytes
        return configuration
    }
}
