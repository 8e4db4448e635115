import Foundation

/// A command-line program driven as a person drives it: lines typed on its standard input, its output read line by
/// line (standard output and standard error together, in the order they arrive).
public final class InteractiveProcess: Sendable {
    private let process: Process
    private let input: FileHandle
    private let exit: ExitStatus
    /// Every line the program wrote.
    public let output = Inbox<String>()

    /// Starts `executable` with `arguments`, and `environment` added to this process's environment.
    public init(_ executable: URL, arguments: [String], environment: [String: String] = [:]) throws {
        self.process = Process()
        self.process.executableURL = executable
        self.process.arguments = arguments
        self.process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let stdin = Pipe()
        let stdout = Pipe()
        self.process.standardInput = stdin
        self.process.standardOutput = stdout
        self.process.standardError = stdout
        self.input = stdin.fileHandleForWriting
        let exit = ExitStatus()
        self.exit = exit
        self.process.terminationHandler = { exit.record($0.terminationStatus) }
        try self.process.run()
        readLines(from: stdout.fileHandleForReading, into: self.output)
    }

    /// Types one line.
    public func type(_ line: String) {
        self.input.write(Data((line + "\n").utf8))
    }

    /// Skips output until a line contains `text`; returns the lines read, that one last.
    @discardableResult
    public func lines(through text: String, timeout: Duration = .seconds(20)) async throws -> [String] {
        var seen: [String] = []
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline, let line = await self.output.next(timeout: deadline - ContinuousClock.now) {
            seen.append(line)
            if line.contains(text) { return seen }
        }
        throw TestClientError("no line with \"\(text)\" in: \(seen.joined(separator: "\n"))")
    }

    /// Waits for the program to exit; returns its status.
    public func waitForExit() async -> Int32 {
        await self.exit.wait()
    }

    /// SIGTERM, then waits for the exit.
    @discardableResult
    public func terminate() async -> Int32 {
        self.process.terminate()
        return await self.exit.wait()
    }
}
