import NIOCore
import NIOPosix

#if canImport(Glibc)
import Glibc
#endif

/// Reconnect-storm mode (`--storm SECONDS`): every client connects to the first node and follows the lobby; a sender
/// on the second node sends `--rate` numbered messages a second; after `SECONDS` the first node is killed with
/// SIGKILL. Its clients come back on the other nodes with a real client's backoff and `resume` while the sender goes
/// on; once every one is back, sending goes on for `--duration` seconds, then stops, and each client's messages are
/// checked: none missing, none twice.
struct StormRun {
    struct Settings: Sendable {
        /// The nodes; the first is killed.
        let urls: [ServerURL]
        /// One per client, then the sender's.
        let tokens: [String]
        let victim: Int32
        let rate: Double
        let killAfterSeconds: Double
        /// How long sending goes on once every client is back.
        let afterSeconds: Double
        let connectRate: Int
        let sources: SourceAddresses
        let identity: RunIdentity
    }

    /// How long connecting, or coming back, may go on without progress before the run gives up.
    private static let stallSeconds = 60.0
    /// Time for the last messages to arrive after sending stops.
    private static let drainSeconds = 3.0

    let settings: Settings
    let progress: ProgressLog

    func run() async throws -> StormResult {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = group.next()
        let settings = self.settings
        let storm = try await loop.submit {
            NIOLoopBound(
                Storm(
                    loop: loop, urls: settings.urls, tokens: settings.tokens, sources: settings.sources,
                    run: settings.identity),
                eventLoop: loop)
        }.get()
        do {
            let result = try await self.run(storm, on: loop)
            try await loop.submit { storm.value.stop() }.get()
            try await group.shutdownGracefully()
            return result
        } catch {
            try? await loop.submit { storm.value.stop() }.get()
            try? await group.shutdownGracefully()
            throw error
        }
    }

    private func run(_ storm: NIOLoopBound<Storm>, on loop: any EventLoop) async throws -> StormResult {
        let settings = self.settings
        let count = settings.tokens.count
        self.progress.say(
            "connecting \(count - 1) clients to \(settings.urls[0].text), the sender to \(settings.urls[1].text)")
        let connectStart = Monotonic.now
        try await self.connectAll(storm, on: loop, count: count)
        try await self.waitUntil("clients following the lobby", total: count, storm, on: loop) { count - $0.ready }
        let connectSeconds = Monotonic.seconds(Monotonic.now - connectStart)
        let sending = try await loop.submit {
            loop.scheduleRepeatedTask(
                initialDelay: .zero, delay: .nanoseconds(Int64(1e9 / settings.rate))
            ) { _ in storm.value.sendNext() }
        }.get()
        try await Monotonic.sleep(seconds: settings.killAfterSeconds)
        self.progress.say("killing the first node (pid \(settings.victim)) with SIGKILL")
        guard kill(settings.victim, SIGKILL) == 0 else {
            throw BenchError.stormFailed("the first node (pid \(settings.victim)) could not be killed")
        }
        try await loop.submit { storm.value.markKilled() }.get()
        // Its clients notice at once (the kernel resets their connections); then each must resume.
        try await Monotonic.sleep(seconds: 0.5)
        try await self.waitUntil("clients back", total: count - 1, storm, on: loop) { $0.waiting }
        self.progress.say("every client is back; sending \(settings.afterSeconds) s more")
        try await Monotonic.sleep(seconds: settings.afterSeconds)
        try await loop.submit { sending.cancel() }.get()
        try await Monotonic.sleep(seconds: Self.drainSeconds)
        return try await loop.submit {
            let storm = storm.value
            return StormResult(
                clients: count - 1, connectSeconds: connectSeconds, sent: storm.sent, losses: storm.losses,
                unexpectedLosses: storm.unexpectedLosses, backAfter: storm.backAfter.sorted(), gaps: storm.gaps,
                duplicates: storm.duplicates, behind: storm.behind, refusedUpgrades: storm.refusedUpgrades,
                failedConnects: storm.failedConnects, errorFrames: storm.errorFrames,
                incompleteResumes: storm.incompleteResumes)
        }.get()
    }

    /// Starts every client's connection, at most ``Settings/connectRate`` a second.
    private func connectAll(_ storm: NIOLoopBound<Storm>, on loop: any EventLoop, count: Int) async throws {
        let start = Monotonic.now
        var started = 0
        while started < count {
            let due = min(count, Int(Monotonic.seconds(Monotonic.now - start) * Double(self.settings.connectRate)) + 1)
            let range = started..<due
            try await loop.submit { for index in range { storm.value.connect(index) } }.get()
            started = due
            try await Monotonic.sleep(seconds: 0.01)
        }
    }

    /// Waits until `remaining` reaches 0, saying how far it got each second; fails after ``stallSeconds`` without
    /// progress.
    private func waitUntil(
        _ what: String, total: Int, _ storm: NIOLoopBound<Storm>, on loop: any EventLoop,
        remaining: @escaping @Sendable (Storm) -> Int
    ) async throws {
        var last = Int.max
        var progressAt = Monotonic.now
        var reportedAt = Monotonic.now
        while true {
            let left = try await loop.submit { remaining(storm.value) }.get()
            if left == 0 { return }
            let now = Monotonic.now
            if left < last {
                last = left
                progressAt = now
            } else if Monotonic.seconds(now - progressAt) > Self.stallSeconds {
                throw BenchError.stormFailed(
                    "\(what): \(total - left) of \(total), none more in \(Self.stallSeconds) s")
            }
            if Monotonic.seconds(now - reportedAt) >= 1 {
                self.progress.say("\(what): \(total - left) of \(total)")
                reportedAt = now
            }
            try await Monotonic.sleep(seconds: 0.1)
        }
    }
}
