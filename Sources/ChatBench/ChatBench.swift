import ArgumentParser
import Foundation

/// `chat-bench`: a load generator for the `/chat` WebSocket endpoint, or for the modern protocol's `/api/v1/ws`
/// (`--protocol modern`: an account per client, the clients spread over `--rooms` rooms).
///
/// All clients live on one event loop, so the generator uses a single core; the report says so when that core
/// was saturated, because the figures then measure the generator rather than the server.
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
        FileDescriptorLimit.raiseToHardLimit()
        var target = try ServerTargets(self.url)
        let progress = ProgressLog(enabled: !self.jsonOnly)
        let identity = RunIdentity()
        var audience: ModernAudience?
        if self.protocol == "modern" {
            let prepared = try await ModernAudience.prepare(
                on: target.urls[0], run: identity, clients: self.clients, rooms: self.rooms, progress: progress)
            target.tokens = prepared.tokens
            audience = prepared
        }
        let server = self.serverPid.isEmpty ? nil : try ProcessProbe(pids: self.serverPid)
        let report: Report
        if self.idle {
            guard let server else { throw Self.idleNeedsServer }
            let settings = IdleRun.Settings(
                target: target, clients: self.clients, connectRate: self.connectRate, rooms: audience?.rooms)
            report = try await IdleRun(settings: settings, server: server, progress: progress).run().report
        } else {
            let settings = LoadRun.Settings(
                target: target, clients: self.clients, senders: self.senders, rate: self.rate,
                duration: self.duration, warmup: self.warmup, messageBytes: self.messageBytes,
                connectRate: self.connectRate, audience: audience, rooms: self.rooms)
            report = try await LoadRun(settings: settings, server: server, progress: progress).run(identity: identity)
                .report
        }
        report.print(jsonOnly: self.jsonOnly)
    }
}
