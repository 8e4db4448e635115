import Foundation
import NIOConcurrencyHelpers

/// The real `chat-server` executable run as a child process, for what an in-process server cannot show: a
/// SIGKILL and a restart on the same data directory.
///
/// Its output is read by a dedicated thread with blocking reads, and its exit is awaited through Foundation's
/// termination handler: no run loop and no dispatch source, which both misbehave around process exit on Linux.
public final class ServerProcess: Sendable {
    private let process: Process
    private let exit: ExitStatus
    public let httpPort: Int
    public let tcpPort: Int

    private init(process: Process, exit: ExitStatus, httpPort: Int, tcpPort: Int) {
        self.process = process
        self.exit = exit
        self.httpPort = httpPort
        self.tcpPort = tcpPort
    }

    /// Where `swift build` put `chat-server`: beside the test bundle.
    public static var executableURL: URL? {
        builtExecutable(named: "chat-server")
    }

    /// Starts `chat-server` on free ports with `arguments` added, and waits for both listener lines.
    public static func start(dataDirectory: String, arguments: [String] = []) async throws -> ServerProcess {
        guard let executable = self.executableURL else {
            throw TestClientError("chat-server was not found beside \(CommandLine.arguments[0]); run `swift build` first")
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = ["--port", "0", "--tcp-port", "0", "--data-dir", dataDirectory, "--log-level", "notice"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        let exit = ExitStatus()
        process.terminationHandler = { exit.record($0.terminationStatus) }
        try process.run()
        let lines = Inbox<String>()
        readLines(from: output.fileHandleForReading, into: lines)
        var httpPort: Int?
        var tcpPort: Int?
        while httpPort == nil || tcpPort == nil {
            guard let line = await lines.next(timeout: .seconds(30)) else {
                process.terminate()
                throw TestClientError("chat-server did not report its listeners")
            }
            if line.contains("HTTP and WebSocket listening on") { httpPort = Self.port(in: line, after: "http://127.0.0.1:") }
            if line.contains("TCP text protocol listening on") { tcpPort = Self.port(in: line, after: "listening on 127.0.0.1:") }
        }
        return ServerProcess(process: process, exit: exit, httpPort: httpPort!, tcpPort: tcpPort!)
    }

    /// SIGKILL: no shutdown code runs at all.
    public func kill() async {
        Foundation.kill(self.process.processIdentifier, SIGKILL)
        _ = await self.exit.wait()
    }

    /// SIGTERM, then waits for the process to exit; returns its exit status.
    @discardableResult
    public func terminate() async -> Int32 {
        self.process.terminate()
        return await self.exit.wait()
    }

    private static func port(in line: String, after marker: String) -> Int? {
        guard let range = line.range(of: marker) else { return nil }
        return Int(line[range.upperBound...].prefix { $0.isNumber })
    }
}
