import ArgumentParser
import Foundation

/// `chat-bench`: a load generator for the `/chat` WebSocket endpoint, or for the modern protocol's `/api/v1/ws`
/// (`--protocol modern`: an account per client, the clients spread over `--rooms` rooms).
///
/// All clients of a process live on one event loop, so each generator process uses a single core; the report says
/// so when that core was saturated, because the figures then measure the generator rather than the server. A run of
/// more clients than one process may hold sockets (or than one core keeps up with) is spread over `--processes`.
@main
struct ChatBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chat-bench",
        abstract: "Measure delivery rate, latency, CPU and memory of a SwiftChat server's /chat endpoint."
    )

    @Option(
        help:
            "The /chat endpoint to load (ws:// only). Repeat it for several nodes of one server: clients are spread over them in turn."
    )
    var url: [String] = ["ws://127.0.0.1:8080/chat"]

    @Option(help: "How many WebSocket clients to open.")
    var clients = 100

    @Option(help: "How many of the clients send messages (the first ones); at most --clients.")
    var senders = 10

    @Option(help: "Messages per second, summed over all senders.")
    var rate = 200.0

    @Option(help: "Length of the measured window, in seconds.")
    var duration = 10.0

    @Option(help: "Size of each message's text, in bytes (64...4096).")
    var messageBytes = 128

    @Option(
        help:
            "The server's process id: adds its CPU time and resident memory (read from /proc) to the report. Repeat it for several nodes: their sum is reported."
    )
    var serverPid: [Int32] = []

    @Option(help: "Seconds of sending at the full rate before the measured window; not recorded.")
    var warmup = 2.0

    @Flag(help: "Measure idle memory: open the clients, send nothing, report the server's RSS per connection.")
    var idle = false

    @Option(
        help:
            "With --idle: keep the connections open this many seconds after memory is read, answering the server's keepalive pings, and report the server's CPU over that time."
    )
    var hold = 0.0

    @Option(help: "Most new connections started per second, to stay under the server's listen backlog.")
    var connectRate = 2000

    @Option(
        help:
            "`chat`: /chat, every client in the lobby. `modern`: /api/v1/ws (the --url's path is replaced), an account per client registered first (the server must allow that many registrations; a low --bcrypt-cost helps), acks to the senders."
    )
    var `protocol` = "chat"

    @Option(
        help:
            "Modern protocol: how many rooms the clients are spread over, in turn (1: the lobby; more: channels of --clients / --rooms members, which must divide evenly). A sender sends into its own room."
    )
    var rooms = 1

    @Flag(help: "Print only the one-line JSON report.")
    var jsonOnly = false

    @Option(
        help:
            "Load runs: how many generator processes share the clients, each on one core and under its own descriptor limit; their figures are merged into one report."
    )
    var processes = 1

    @Option(
        help:
            "Connect from this many loopback source addresses (127.1.0.1 upwards, client i from the (i mod N)-th) instead of 127.0.0.1: each has its own ephemeral ports, and the server's per-address limits see many clients. 0: the kernel's choice."
    )
    var sourceAddresses = 0

    @Option(
        help:
            "Reconnect storm: every client (modern protocol) connects to the first --url and a sender to the second sends --rate numbered messages a second; after this many seconds the first node (the first --server-pid) is killed with SIGKILL, its clients come back on the other nodes with a real client's backoff and resume, sending goes on --duration seconds once all are back, and every client's messages are checked for gaps and duplicates."
    )
    var storm: Double?

    @Option(
        help:
            "Modern protocol: a file of the run's accounts and rooms. When it exists (an earlier run with as many clients, on the same database), they are used instead of registering; else the new ones are written to it."
    )
    var accounts: String?

    @Option(help: .hidden) var worker: Int?
    @Option(help: .hidden) var runID: String?
    @Option(help: .hidden) var audienceFile: String?

    private static let idleNeedsServer = ValidationError("--idle needs --server-pid to read the server's memory.")

    func validate() throws {
        guard self.clients >= 1 else { throw ValidationError("--clients must be at least 1.") }
        guard self.connectRate >= 1 else { throw ValidationError("--connect-rate must be at least 1.") }
        _ = try ServerTargets(self.url)
        guard ["chat", "modern"].contains(self.protocol) else {
            throw ValidationError("--protocol must be chat or modern.")
        }
        guard self.rooms >= 1, self.clients % self.rooms == 0, self.protocol == "modern" || self.rooms == 1 else {
            throw ValidationError("--rooms must divide --clients, and needs --protocol modern to be more than 1.")
        }
        guard self.processes >= 1, self.processes <= self.clients else {
            throw ValidationError("--processes must be between 1 and --clients.")
        }
        guard self.processes == 1 || !self.idle else { throw ValidationError("--idle runs in one process.") }
        guard (0...SourceAddresses.maximum).contains(self.sourceAddresses) else {
            throw ValidationError("--source-addresses must be between 0 and \(SourceAddresses.maximum).")
        }
        if self.sourceAddresses > 0 {
            guard try ServerTargets(self.url).urls.allSatisfy({ $0.host.hasPrefix("127.") }) else {
                throw ValidationError("--source-addresses needs every --url on loopback (127.x.x.x).")
            }
        }
        if let storm = self.storm {
            guard storm >= 0, storm.isFinite, !self.idle, self.processes == 1, self.protocol == "modern",
                self.rooms == 1, self.url.count >= 2, self.serverPid.count == self.url.count
            else {
                throw ValidationError(
                    "--storm needs --protocol modern in one process, at least two --url, and a --server-pid for each (the first is killed)."
                )
            }
        }
        guard self.hold >= 0, self.hold.isFinite, self.hold == 0 || self.idle else {
            throw ValidationError("--hold needs --idle and a number of seconds.")
        }
        if self.idle {
            guard !self.serverPid.isEmpty else { throw Self.idleNeedsServer }
            return
        }
        guard (1...self.clients).contains(self.senders) else {
            throw ValidationError("--senders must be between 1 and --clients (\(self.clients)).")
        }
        guard self.rate > 0, self.rate.isFinite else { throw ValidationError("--rate must be positive.") }
        guard self.duration > 0, self.duration.isFinite else { throw ValidationError("--duration must be positive.") }
        guard self.warmup >= 0, self.warmup.isFinite else { throw ValidationError("--warmup must not be negative.") }
        guard MessageEncoder.allowedTextBytes.contains(self.messageBytes) else {
            throw ValidationError(
                "--message-bytes must be between \(MessageEncoder.allowedTextBytes.lowerBound) and "
                    + "\(MessageEncoder.allowedTextBytes.upperBound): shorter cannot hold the timestamp, "
                    + "longer is refused by the server.")
        }
    }

    func run() async throws {
        let descriptors = FileDescriptorLimit.raiseToHardLimit()
        if let worker = self.worker {
            await self.runWorker(worker)
            return
        }
        let perProcess = (self.clients + self.processes - 1) / self.processes
        if let descriptors, perProcess > descriptors - FileDescriptorLimit.reserve {
            throw ValidationError(
                "\(perProcess) clients in one process would need more than its \(descriptors) file descriptors: "
                    + "spread them over more --processes.")
        }
        var target = try ServerTargets(self.url)
        let progress = ProgressLog(enabled: !self.jsonOnly)
        let identity = RunIdentity()
        if let storm = self.storm {
            try await self.runStorm(killAfter: storm, target: target, identity: identity, progress: progress)
            return
        }
        var audience: ModernAudience?
        if self.protocol == "modern" {
            let prepared = try await ModernAudience.prepare(
                on: target.urls, run: identity, clients: self.clients, rooms: self.rooms, reusing: self.accounts,
                progress: progress)
            target.tokens = prepared.tokens
            audience = prepared
        }
        let server = self.serverPid.isEmpty ? nil : try ProcessProbe(pids: self.serverPid)
        let report: Report
        if self.idle {
            guard let server else { throw Self.idleNeedsServer }
            let settings = IdleRun.Settings(
                target: target, clients: self.clients, connectRate: self.connectRate,
                sources: SourceAddresses(count: self.sourceAddresses), holdSeconds: self.hold, rooms: audience?.rooms)
            report = try await IdleRun(settings: settings, server: server, progress: progress).run().report
        } else if self.processes > 1 {
            let audienceFile = try audience.map { try Self.write($0, run: identity) }
            defer { audienceFile.map { try? FileManager.default.removeItem(atPath: $0) } }
            let spread = SpreadRun(
                settings: self.loadSettings(target: target, audience: audience, slice: .whole(self.clients)),
                processes: self.processes,
                workerArguments: { [self] in self.workerArguments($0, run: identity, audienceFile: audienceFile) },
                server: server, progress: progress)
            report = try await spread.run().report
        } else {
            let settings = self.loadSettings(target: target, audience: audience, slice: .whole(self.clients))
            report = try await LoadRun(
                settings: settings, server: server, progress: progress, coordinator: LocalCoordinator()
            ).run(identity: identity).report
        }
        report.print(jsonOnly: self.jsonOnly)
    }

    /// A reconnect storm (``StormRun``): the accounts (one more, the sender's), then the run.
    private func runStorm(
        killAfter: Double, target: ServerTargets, identity: RunIdentity, progress: ProgressLog
    ) async throws {
        let audience = try await ModernAudience.prepare(
            on: target.urls, run: identity, clients: self.clients + 1, rooms: 1, reusing: self.accounts,
            progress: progress)
        let settings = StormRun.Settings(
            urls: target.urls, tokens: audience.tokens, victim: self.serverPid[0], rate: self.rate,
            killAfterSeconds: killAfter, afterSeconds: self.duration, connectRate: self.connectRate,
            sources: SourceAddresses(count: self.sourceAddresses), identity: identity)
        let result = try await StormRun(settings: settings, progress: progress).run()
        result.report.print(jsonOnly: self.jsonOnly)
        if !result.passed { throw ExitCode.failure }
    }

    private func loadSettings(target: ServerTargets, audience: ModernAudience?, slice: ClientSlice)
        -> LoadRun.Settings
    {
        LoadRun.Settings(
            target: target, clients: self.clients, senders: self.senders, rate: self.rate, duration: self.duration,
            warmup: self.warmup, messageBytes: self.messageBytes, connectRate: self.connectRate, audience: audience,
            rooms: self.rooms, slice: slice, sources: SourceAddresses(count: self.sourceAddresses))
    }

    /// A worker of a spread run: its slice of the clients, in step with the parent (``WorkerCoordinator``); its
    /// result, or why it failed, is its last line.
    private func runWorker(_ index: Int) async {
        let progress = ProgressLog(enabled: !self.jsonOnly, prefix: "worker \(index)")
        do {
            var target = try ServerTargets(self.url)
            let audience = try self.audienceFile.map {
                try JSONDecoder().decode(ModernAudience.self, from: Data(contentsOf: URL(fileURLWithPath: $0)))
            }
            target.tokens = audience?.tokens
            let settings = self.loadSettings(
                target: target, audience: audience,
                slice: .part(index, of: self.processes, total: self.clients))
            let result = try await LoadRun(
                settings: settings, server: nil, progress: progress, coordinator: WorkerCoordinator()
            ).run(identity: RunIdentity(id: self.runID ?? ""))
            WorkerCoordinator.finish(
                .result(
                    WorkerResult(
                        outcome: result.outcome, connectSeconds: result.connectSeconds,
                        generatorCPUSeconds: result.cpuAfter.generatorSeconds - result.cpuBefore.generatorSeconds)))
        } catch {
            WorkerCoordinator.finish(.failed(String(describing: error)))
        }
    }

    /// The command line of worker `index`: this run's settings, its share of the connect rate, and its place.
    private func workerArguments(_ index: Int, run: RunIdentity, audienceFile: String?) -> [String] {
        var arguments = self.url.flatMap { ["--url", $0] }
        arguments += [
            "--clients", "\(self.clients)", "--senders", "\(self.senders)", "--rate", "\(self.rate)",
            "--duration", "\(self.duration)", "--warmup", "\(self.warmup)", "--message-bytes", "\(self.messageBytes)",
            "--connect-rate", "\(max(1, self.connectRate / self.processes))", "--protocol", self.protocol,
            "--rooms", "\(self.rooms)", "--source-addresses", "\(self.sourceAddresses)",
            "--processes", "\(self.processes)", "--worker", "\(index)", "--run-id", run.id,
        ]
        if let audienceFile { arguments += ["--audience-file", audienceFile] }
        if self.jsonOnly { arguments.append("--json-only") }
        return arguments
    }

    /// The accounts and rooms, for the workers to read.
    private static func write(_ audience: ModernAudience, run: RunIdentity) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("chat-bench-\(run.id).json").path
        try JSONEncoder().encode(audience).write(to: URL(fileURLWithPath: path))
        return path
    }
}
