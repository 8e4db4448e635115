import Foundation

/// A load run spread over worker processes (`--processes N`): each opens a slice of the clients, under its own
/// descriptor limit, and this process keeps them in step (``WorkerLine``), measures the server over the window, and
/// merges what they counted into one result. One clock serves them all: the messages carry the monotonic time of
/// their sending, which every process on the machine reads alike.
struct SpreadRun {
    /// The whole run's settings.
    let settings: LoadRun.Settings
    let processes: Int
    /// The command line of worker `k`.
    let workerArguments: @Sendable (Int) -> [String]
    let server: ProcessProbe?
    let progress: ProgressLog

    func run() async throws -> LoadResult {
        let executable = URL(
            fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        self.progress.say("starting \(self.processes) worker processes")
        var workers: [Worker] = []
        do {
            for index in 0..<self.processes {
                workers.append(try Worker(executable, arguments: self.workerArguments(index)))
            }
            let greeted = try await Self.step(workers) { line -> Int? in
                if case .greeted(let count) = line { count } else { nil }
            }
            try Self.tell(workers, .greeted(greeted.reduce(0, +)))
            let proposals = try await Self.step(workers) { line -> RunWindow? in
                if case .window(let window) = line { window } else { nil }
            }
            // Everyone starts together, once the last worker is ready; each keeps the warm-up and window lengths.
            let start = proposals.map(\.start).max()! + Monotonic.nanoseconds(0.1)
            let window = RunWindow(
                start: start, measuredFrom: start + Monotonic.nanoseconds(self.settings.warmup),
                until: start + Monotonic.nanoseconds(self.settings.warmup + self.settings.duration))
            try Self.tell(workers, .window(window))
            try await Monotonic.sleep(until: window.measuredFrom)
            let before = try CPUSample(server: self.server, generatorSeconds: 0)
            try await Monotonic.sleep(until: window.until)
            let afterServer = try CPUSample(server: self.server, generatorSeconds: 0)
            let sent = try await Self.step(workers) { line -> [Int]? in
                if case .sent(let counts) = line { counts } else { nil }
            }
            try Self.tell(workers, .sent(sent.dropFirst().reduce(sent[0]) { zip($0, $1).map(+) }))
            let results = try await Self.step(workers) { line -> WorkerResult? in
                if case .result(let result) = line { result } else { nil }
            }
            for worker in workers { await worker.exit() }
            let generatorSeconds = results.map(\.generatorCPUSeconds)
            let after = CPUSample(
                time: afterServer.time, generatorSeconds: generatorSeconds.reduce(0, +), server: afterServer.server,
                machine: afterServer.machine)
            return LoadResult(
                settings: self.settings, connectSeconds: results.map(\.connectSeconds).max() ?? 0,
                outcome: LoadOutcome(merging: results.map(\.outcome))!, cpuBefore: before, cpuAfter: after,
                serverRSSKiB: try self.server?.residentKiB(), workerGeneratorSeconds: generatorSeconds)
        } catch {
            for worker in workers { worker.stop() }
            throw error
        }
    }

    /// Reads every worker's next line, which must be the step's (`expected` answers non-nil).
    private static func step<Value>(_ workers: [Worker], _ expected: (WorkerLine) -> Value?) async throws -> [Value] {
        var values: [Value] = []
        for (index, worker) in workers.enumerated() {
            let line = try await worker.next()
            if case .failed(let reason) = line { throw BenchError.spreadFailed("worker \(index): \(reason)") }
            guard let value = expected(line) else { throw BenchError.spreadFailed("worker \(index) is out of step") }
            values.append(value)
        }
        return values
    }

    private static func tell(_ workers: [Worker], _ line: WorkerLine) throws {
        for worker in workers { try worker.tell(line) }
    }
}

/// One worker process: `chat-bench` again, with `--worker K`; its progress goes to this process's standard error.
private final class Worker {
    private let process = Process()
    private let input = Pipe()
    private let lines: LineReader

    init(_ executable: URL, arguments: [String]) throws {
        let output = Pipe()
        self.process.executableURL = executable
        self.process.arguments = arguments
        self.process.standardInput = self.input
        self.process.standardOutput = output
        self.lines = LineReader(output.fileHandleForReading)
        try self.process.run()
    }

    func next() async throws -> WorkerLine {
        guard let line = await self.lines.next() else {
            await self.exit()
            throw BenchError.spreadFailed("a worker stopped (status \(self.process.terminationStatus))")
        }
        return try WorkerLine(line: line)
    }

    func tell(_ line: WorkerLine) throws {
        try self.input.fileHandleForWriting.write(contentsOf: line.encoded)
    }

    /// Waits until the process has ended (it closes its clients after its result).
    func exit() async {
        while self.process.isRunning { try? await Task.sleep(for: .milliseconds(20)) }
    }

    func stop() {
        if self.process.isRunning { self.process.terminate() }
    }
}
