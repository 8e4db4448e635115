import Foundation
import NIOConcurrencyHelpers

/// The real `chat-server` executable run as a child process, for what an in-process server cannot show: a
/// SIGKILL and a restart on the same data directory.
///
/// Its output is read by a dedicated thread with blocking reads, and its exit is awaited with `waitpid`
/// (`ChildProcess`).
public final class ServerProcess: Sendable {
    private let child: ChildProcess
    public let httpPort: Int
    public let tcpPort: Int
    /// The lines the server printed after its listener lines (standard output and error).
    public let output: Inbox<String>

    private init(child: ChildProcess, httpPort: Int, tcpPort: Int, output: Inbox<String>) {
        self.child = child
        self.httpPort = httpPort
        self.tcpPort = tcpPort
        self.output = output
    }

    /// A test that fails before it stops its server must not leave the server running after the tests.
    deinit {
        if !self.child.exit.hasExited { self.child.signal(SIGKILL) }
    }

    /// Where `swift build` put `chat-server`: beside the test bundle.
    public static var executableURL: URL? {
        builtExecutable(named: "chat-server")
    }

    /// Every test client comes from 127.0.0.1: per-address limits are raised, as ``TestServer`` raises them.
    static let testLimits = [
        "--registrations-per-hour", "100000", "--max-connections-per-address", "100000",
        "--tutorial-send-burst", "100000", "--tutorial-send-rate", "100000", "--drain-seconds", "0",
        "--metrics-port", "0",
    ]

    /// Starts `chat-server` on free ports with `arguments` added, and waits for both listener lines; each line
    /// printed before them is shown to `whileStarting`, which may signal the process (a SIGHUP during start-up).
    /// `descriptorLimit` runs it under that many file descriptors (util-linux's `prlimit`, soft and hard).
    public static func start(
        dataDirectory: String, arguments: [String] = [], descriptorLimit: Int? = nil,
        whileStarting: (@Sendable (_ line: String, _ signal: @Sendable (Int32) -> Void) -> Void)? = nil
    ) async throws -> ServerProcess {
        guard let server = self.executableURL else {
            throw TestClientError(
                "chat-server was not found beside \(CommandLine.arguments[0]); run `swift build` first")
        }
        var executable = server
        var arguments =
            ["--port", "0", "--tcp-port", "0", "--data-dir", dataDirectory, "--log-level", "notice"]
            + Self.testLimits + arguments
        if let descriptorLimit {
            executable = URL(fileURLWithPath: "/usr/bin/prlimit")
            arguments = ["--nofile=\(descriptorLimit):\(descriptorLimit)", server.path] + arguments
        }
        let child = try ChildProcess(
            executable, arguments: arguments, environment: [:], input: false, standardError: .mergedWithOutput)
        let lines = Inbox<String>()
        readLines(from: child.output, into: lines)
        var httpPort: Int?
        var tcpPort: Int?
        while httpPort == nil || tcpPort == nil {
            guard let line = await lines.next(timeout: .seconds(30)) else {
                child.signal(SIGKILL)
                throw TestClientError("chat-server did not report its listeners")
            }
            if httpPort == nil && tcpPort == nil { whileStarting?(line) { child.signal($0) } }
            if line.contains("HTTP and WebSocket listening on") {
                httpPort = Self.port(in: line, after: "://127.0.0.1:")
            }
            if line.contains("TCP text protocol listening on") {
                tcpPort = Self.port(in: line, after: "listening on 127.0.0.1:")
            }
        }
        return ServerProcess(child: child, httpPort: httpPort!, tcpPort: tcpPort!, output: lines)
    }

    /// Waits for a line of output that contains `text`, and returns it.
    @discardableResult
    public func waitForOutput(_ text: String, timeout: Duration = .seconds(10)) async throws -> String {
        while let line = await self.output.next(timeout: timeout) {
            if line.contains(text) { return line }
        }
        throw TestClientError("no output line containing \(text)")
    }

    /// Sends a signal (SIGHUP, say) and returns at once.
    public func send(_ signal: Int32) {
        self.child.signal(signal)
    }

    /// SIGKILL: no shutdown code runs at all.
    public func kill() async {
        self.child.signal(SIGKILL)
        _ = await self.child.exit.wait()
    }

    /// SIGTERM, then waits for the process to exit; returns its exit status. A server still running a minute
    /// later is killed (and the status is then SIGKILL's number), so a stuck shutdown fails a test instead of
    /// hanging it.
    @discardableResult
    public func terminate() async -> Int32 {
        self.child.signal(SIGTERM)
        return await self.child.exitStatus(within: .seconds(60))
    }

    private static func port(in line: String, after marker: String) -> Int? {
        guard let range = line.range(of: marker) else { return nil }
        return Int(line[range.upperBound...].prefix { $0.isNumber })
    }
}
