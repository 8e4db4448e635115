import ChatClient
import ChatProtocol
import ChatServer
import ChatTestSupport
import Foundation
import Testing

/// Runs the built `chat` executable (beside the test bundle) and collects its output and exit status.
private func runChat(_ arguments: [String], environment: [String: String] = [:]) async throws -> (status: Int32, output: String) {
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    var executable: URL?
    for _ in 0..<4 {
        let candidate = directory.appendingPathComponent("chat")
        if FileManager.default.isExecutableFile(atPath: candidate.path) { executable = candidate; break }
        directory.deleteLastPathComponent()
    }
    guard let executable else { throw TestClientError("chat was not found beside \(CommandLine.arguments[0]); run `swift build` first") }
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    let status: Int32 = try await withCheckedThrowingContinuation { continuation in
        process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
        do { try process.run() } catch { continuation.resume(throwing: error) }
    }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    return (status, String(decoding: data, as: UTF8.self))
}

@Suite("The chat executable: scripting, exit codes, config file")
struct CLITests {
    @Test("login saves a 0600 config; send and tail --json work from it; failures have their exit codes")
    func scripting() async throws {
        try await withTestServer { server in
            // setup
            let config = TestServer.makeTemporaryDirectory() + "/chat/config.json"
            let environment = ["CHAT_CONFIG": config, "CHAT_PASSWORD": "correct horse"]
            let serverURL = "http://\(server.host):\(server.httpPort)"
            // act and validate: login --register
            let login = try await runChat(["login", "--server", serverURL, "-u", "ann", "--register"], environment: environment)
            #expect(login.status == 0)
            let permissions = try FileManager.default.attributesOfItem(atPath: config)[.posixPermissions] as? Int
            #expect(permissions == 0o600)
            // send, using the saved session only
            let sent = try await runChat(["send", "--room", "lobby", "--json", "hello from a script"], environment: ["CHAT_CONFIG": config])
            #expect(sent.status == 0)
            let ack = try JSONDecoder().decode(Ack.self, from: Data(sent.output.utf8))
            #expect(ack.room == "lobby" && ack.seq == 1)
            // tail --json prints the history as one JSON object per line
            let tail = try await runChat(["tail", "--room", "lobby", "--json", "--history", "5", "--count", "0"], environment: ["CHAT_CONFIG": config])
            let lines = tail.output.split(separator: "\n")
            #expect(lines.count == 1)
            let message = try JSONDecoder().decode(MessagePayload.self, from: Data(lines[0].utf8))
            #expect(message.text == "hello from a script" && message.sender.name == "ann")
            // exit codes
            #expect(try await runChat(["send", "--room", "no-such-room", "x"], environment: ["CHAT_CONFIG": config]).status == 65)
            let wrong = ["CHAT_CONFIG": config + ".other", "CHAT_PASSWORD": "not the password"]
            #expect(try await runChat(["send", "--server", serverURL, "-u", "ann", "x"], environment: wrong).status == 77)
            let nowhere = ["CHAT_CONFIG": config + ".other", "CHAT_PASSWORD": "x"]
            #expect(try await runChat(["send", "--server", "http://127.0.0.1:1", "-u", "ann", "x"], environment: nowhere).status == 69)
            #expect(try await runChat(["send", "--server", "not a url", "x"], environment: nowhere).status == 64)
        }
    }
}
