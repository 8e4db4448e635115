/// Idle-memory mode: the server's resident memory before and after holding `clients` connections that send
/// nothing.
struct IdleRun {
    struct Settings: Sendable {
        let target: ServerTargets
        let clients: Int
        let connectRate: Int
        let sources: SourceAddresses
        /// How long to keep the connections open after memory is read, answering the server's pings.
        let holdSeconds: Double
        /// On the modern protocol, each client's room (its connection sends `resume`); nil on `/chat`.
        let rooms: [String]?
    }

    /// The history burst is over once no frame has arrived for this long.
    private static let quietSeconds = 1.0
    /// Going on after this long even if frames keep trickling in.
    private static let historyTimeout = 30.0
    /// Time for the server's allocator and caches to settle before memory is read.
    private static let settleSeconds = 3.0

    let settings: Settings
    let server: ProcessProbe
    let progress: ProgressLog

    func run() async throws -> IdleResult {
        let settings = self.settings
        let before = try self.server.residentKiB()
        return try await withBenchRun(
            identity: RunIdentity(), slice: .whole(settings.clients), senders: 0, rate: 1, textBytes: 0,
            rooms: settings.rooms, progress: self.progress
        ) { run in
            self.progress.say("connecting \(settings.clients) idle clients to \(settings.target.text)")
            let connectStart = Monotonic.now
            try await ClientConnector(
                target: settings.target, sources: settings.sources, run: run, connectRate: settings.connectRate,
                progress: self.progress
            ).connectAll()
            let connectSeconds = Monotonic.seconds(Monotonic.now - connectStart)
            try await self.waitForHistory(run)
            self.progress.say("settling for \(Self.settleSeconds) s")
            try await Monotonic.sleep(seconds: Self.settleSeconds)
            let after = try self.server.residentKiB()
            let held = try await self.hold(run)
            let (connected, retries, frames, disconnects) = try await run.read {
                ($0.tracker.upgraded, $0.tracker.retries, $0.recorder.frames, $0.tracker.disconnects)
            }
            return IdleResult(
                settings: settings, connected: connected, connectSeconds: connectSeconds, refusedUpgrades: retries,
                rssBeforeKiB: before, rssAfterKiB: after, historyFrames: frames, disconnects: disconnects, held: held)
        }
    }

    /// Keeps the connections open for ``Settings/holdSeconds`` (the clients answer the server's keepalive pings),
    /// and returns the server's CPU time over it and the pings answered; nil when there is no hold.
    private func hold(_ run: BenchRunHandle) async throws -> IdleResult.Hold? {
        guard self.settings.holdSeconds > 0 else { return nil }
        self.progress.say("holding \(self.settings.clients) connections for \(self.settings.holdSeconds) s")
        let cpuBefore = try self.server.cpuSeconds()
        let pingsBefore = try await run.read { $0.tracker.pings }
        try await Monotonic.sleep(seconds: self.settings.holdSeconds)
        let pings = try await run.read { $0.tracker.pings } - pingsBefore
        return IdleResult.Hold(
            seconds: self.settings.holdSeconds, serverCPUSeconds: try self.server.cpuSeconds() - cpuBefore,
            pings: pings)
    }

    /// Waits until the history each client receives on connecting has stopped arriving.
    private func waitForHistory(_ run: BenchRunHandle) async throws {
        let deadline = Monotonic.now + Monotonic.nanoseconds(Self.historyTimeout)
        var frames = try await run.read { $0.recorder.frames }
        var quietSince = Monotonic.now
        while Monotonic.now < deadline {
            try await Monotonic.sleep(seconds: 0.1)
            let latest = try await run.read { $0.recorder.frames }
            if latest != frames {
                frames = latest
                quietSince = Monotonic.now
            } else if Monotonic.seconds(Monotonic.now - quietSince) >= Self.quietSeconds {
                return
            }
        }
    }
}
