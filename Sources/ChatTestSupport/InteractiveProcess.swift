import Foundation

/// A command-line program driven as a person drives it: lines typed on its standard input, its output read line by
/// line (standard output and standard error together, in the order they arrive).
public final class InteractiveProcess: Sendable {
    private let child: ChildProcess
    /// Every line the program wrote.
    public let output = Inbox<String>()

    /// Starts `executable` with `arguments`, and `environment` added to this process's environment.
    public init(_ executable: URL, arguments: [String], environment: [String: String] = [:]) throws {
        self.child = try ChildProcess(
            executable, arguments: arguments, environment: environment, input: true, standardError: .mergedWithOutput)
        readLines(from: self.child.output, into: self.output)
    }

    /// Types one line. Typing to a program that has exited does nothing (the test finds out from its output).
    public func type(_ line: String) {
        try? self.child.input?.write(contentsOf: Data((line + "\n").utf8))
    }

    /// Skips output until a line contains `text`; returns the lines read, that one last.
    @discardableResult
    public func lines(through text: String, timeout: Duration = .seconds(20)) async throws -> [String] {
        var seen: [String] = []
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline, let line = await self.output.next(timeout: deadline - ContinuousClock.now)
        {
            seen.append(line)
            if line.contains(text) { return seen }
        }
        throw TestClientError("no line with \"\(text)\" in: \(seen.joined(separator: "\n"))")
    }

    /// Waits for the program to exit; returns its status (killed after `limit`, see `ChildProcess.exitStatus`).
    public func waitForExit(within limit: Duration = .seconds(30)) async -> Int32 {
        await self.child.exitStatus(within: limit)
    }

    /// SIGTERM, then waits for the exit.
    @discardableResult
    public func terminate() async -> Int32 {
        self.child.signal(SIGTERM)
        return await self.waitForExit()
    }
}
