import NIOCore

/// Load mode: clients connect, the senders greet, then send at the rate through a warm-up and the measured
/// window while every client records what it receives.
struct LoadRun {
    struct Settings: Sendable {
        let target: ServerTargets
        let clients: Int
        let senders: Int
        let rate: Double
        let duration: Double
        let warmup: Double
        let messageBytes: Int
        let connectRate: Int
        /// On the modern protocol: the accounts and their rooms; nil for `/chat`.
        let audience: ModernAudience?
        /// How many rooms the clients are spread over (1 on `/chat`).
        let rooms: Int
        /// The clients this process opens (all of them unless the run is spread over processes).
        let slice: ClientSlice
        let sources: SourceAddresses

        /// How many clients receive each message: everyone in the lobby, the members of its room otherwise.
        var receiversPerMessage: Int { self.clients / self.rooms }
    }

    /// How long to wait for every client to see every greeting before going on anyway.
    private static let greetingTimeout = 10.0
    /// The pause after the greetings, so their announcements are out of the way.
    private static let settleSeconds = 1.0
    /// How long after the window to wait for messages still in flight.
    private static let stragglerTimeout = 5.0

    let settings: Settings
    let server: ProcessProbe?
    let progress: ProgressLog
    /// Agrees the run's steps with the other processes of a spread run (``LocalCoordinator`` when there are none).
    let coordinator: any RunCoordinator

    /// `identity` must be the one the audience was registered with.
    func run(identity: RunIdentity) async throws -> LoadResult {
        let settings = self.settings
        return try await withBenchRun(
            identity: identity, slice: settings.slice, senders: settings.senders, rate: settings.rate,
            textBytes: settings.messageBytes, rooms: settings.audience?.rooms, progress: self.progress
        ) { run in
            self.progress.say("connecting \(settings.slice.count) clients to \(settings.target.text)")
            let connectStart = Monotonic.now
            try await ClientConnector(
                target: settings.target, sources: settings.sources, run: run, connectRate: settings.connectRate,
                progress: self.progress
            ).connectAll()
            let connectSeconds = Monotonic.seconds(Monotonic.now - connectStart)
            if settings.audience != nil { try await self.waitUntilFollowing(run) }
            try await self.greet(run)
            try await Monotonic.sleep(seconds: Self.settleSeconds)

            let window = try await self.startSending(run)
            self.progress.say("warming up for \(settings.warmup) s")
            try await Monotonic.sleep(until: window.measuredFrom)
            let before = try CPUSample(server: self.server)
            self.progress.say("measuring for \(settings.duration) s")
            try await Monotonic.sleep(until: window.until)
            let after = try CPUSample(server: self.server)
            try await self.waitForStragglers(run)
            let serverRSS = try self.server?.residentKiB()
            let outcome = try await run.read { LoadOutcome($0) }
            return LoadResult(
                settings: settings, connectSeconds: connectSeconds, outcome: outcome, cpuBefore: before,
                cpuAfter: after, serverRSSKiB: serverRSS)
        }
    }

    /// On the modern protocol, waits until every client's `resume` is answered (the lobby, and its own room if
    /// it has one): a message committed before that would not reach it.
    private func waitUntilFollowing(_ run: BenchRunHandle) async throws {
        let expected = self.settings.slice.count * (self.settings.rooms > 1 ? 2 : 1)
        let deadline = Monotonic.now + Monotonic.nanoseconds(Self.greetingTimeout)
        while try await run.read({ $0.recorder.resumed }) < expected {
            guard Monotonic.now < deadline else {
                self.progress.say("not every client resumed within \(Self.greetingTimeout) s; going on")
                return
            }
            try await Monotonic.sleep(seconds: 0.02)
        }
    }

    /// Each sender sends one greeting and the run waits until every client has seen all of them, so the join
    /// announcements they cause are not part of the measurement.
    private func greet(_ run: BenchRunHandle) async throws {
        let greetedHere = try await run.read { $0.pacer.sendHellos() }
        let greeters = try await self.coordinator.greeted(here: greetedHere)
        let slice = self.settings.slice
        let rooms = self.settings.rooms
        // The first `greeters` senders greeted (the others could not connect, and the wait runs out).
        let expected = (0..<greeters).reduce(0) { $0 + slice.receivers(ofSender: $1, rooms: rooms) }
        self.progress.say("\(greeters) senders greeted; waiting for every client to see the greetings")
        let deadline = Monotonic.now + Monotonic.nanoseconds(Self.greetingTimeout)
        while try await run.read({ $0.recorder.hellos }) < expected {
            guard Monotonic.now < deadline else {
                self.progress.say("not every greeting arrived within \(Self.greetingTimeout) s; going on")
                break
            }
            try await Monotonic.sleep(seconds: 0.02)
        }
    }

    /// Schedules the warm-up and the window (agreed with the other processes) and starts the pacer's timer.
    private func startSending(_ run: BenchRunHandle) async throws -> RunWindow {
        let start = Monotonic.now + Monotonic.nanoseconds(0.01)
        let window = try await self.coordinator.window(
            proposed: RunWindow(
                start: start, measuredFrom: start + Monotonic.nanoseconds(self.settings.warmup),
                until: start + Monotonic.nanoseconds(self.settings.warmup + self.settings.duration)))
        try await run.read { run in
            run.recorder.measure(from: window.measuredFrom, until: window.until)
            run.pacer.schedule(start: window.start, measuredFrom: window.measuredFrom, until: window.until)
        }
        // One tick per message when that is at least a millisecond apart, else batches each millisecond; never
        // coarser than 10 ms, so that late messages stay rare.
        let tick = TimeAmount.nanoseconds(Int64(min(max(1e9 / self.settings.rate, 1e6), 1e7)))
        let bound = run.bound
        let now = Monotonic.now
        let delay = TimeAmount.nanoseconds(window.start > now ? Int64(window.start - now) : 0)
        run.loop.scheduleRepeatedTask(initialDelay: delay, delay: tick) { task in
            if !bound.value.pacer.tick() {
                task.cancel()
            }
        }
        return window
    }

    /// Waits until every message of the window has reached every client, or the straggler timeout passes.
    private func waitForStragglers(_ run: BenchRunHandle) async throws {
        let slice = self.settings.slice
        let own = slice.senders(of: self.settings.senders)
        var sentHere = Array(repeating: 0, count: self.settings.senders)
        sentHere.replaceSubrange(own, with: try await run.read { $0.pacer.measuredSentBySender })
        let sent = try await self.coordinator.sentBySender(here: sentHere)
        let expected = sent.enumerated().reduce(0) {
            $0 + $1.element * slice.receivers(ofSender: $1.offset, rooms: self.settings.rooms)
        }
        let deadline = Monotonic.now + Monotonic.nanoseconds(Self.stragglerTimeout)
        while Monotonic.now < deadline {
            if try await run.read({ $0.recorder.deliveries }) >= expected { return }
            try await Monotonic.sleep(seconds: 0.02)
        }
        self.progress.say("stopped waiting for undelivered messages after \(Self.stragglerTimeout) s")
    }
}

/// What the clients counted, copied off the event loop; in a spread run, summed over the processes.
struct LoadOutcome: Sendable, Codable {
    var connected: Int
    var sent: Int
    var maxSendLagMilliseconds: Double
    var deliveries: Int
    var latencies: LatencyHistogram
    var disconnects: Int
    var serverCloses: Int
    var errorFrames: Int

    var latency: LatencySummary { LatencySummary(self.latencies) }

    init(_ run: BenchRun) {
        self.connected = run.tracker.upgraded
        self.sent = run.pacer.measuredSent
        self.maxSendLagMilliseconds = Double(run.pacer.maxSendLagNanos) / 1e6
        self.deliveries = run.recorder.deliveries
        self.latencies = run.recorder.latencies
        self.disconnects = run.tracker.disconnects
        self.serverCloses = run.tracker.serverCloses
        self.errorFrames = run.recorder.errorFrames
    }

    /// The sum of several processes' outcomes (the first one's, the others added).
    init?(merging outcomes: [LoadOutcome]) {
        guard var sum = outcomes.first else { return nil }
        for other in outcomes.dropFirst() {
            sum.connected += other.connected
            sum.sent += other.sent
            sum.maxSendLagMilliseconds = max(sum.maxSendLagMilliseconds, other.maxSendLagMilliseconds)
            sum.deliveries += other.deliveries
            sum.latencies.merge(other.latencies)
            sum.disconnects += other.disconnects
            sum.serverCloses += other.serverCloses
            sum.errorFrames += other.errorFrames
        }
        self = sum
    }
}

/// The CPU time used so far by the generator, the machine and, if known, the server.
struct CPUSample: Sendable {
    let time: UInt64
    let generatorSeconds: Double
    let server: CPUTimes?
    var serverSeconds: Double? { self.server?.total }
    let machine: MachineCPU

    init(time: UInt64, generatorSeconds: Double, server: CPUTimes?, machine: MachineCPU) {
        self.time = time
        self.generatorSeconds = generatorSeconds
        self.server = server
        self.machine = machine
    }

    /// `generatorSeconds`: the generator's CPU time when it runs in other processes (a spread run's workers);
    /// by default this process's.
    init(server: ProcessProbe?, generatorSeconds: Double? = nil) throws {
        self.time = Monotonic.now
        self.generatorSeconds = try generatorSeconds ?? ProcessProbe.current.cpuSeconds()
        self.server = try server?.cpuTimes()
        self.machine = try MachineCPU()
    }
}
