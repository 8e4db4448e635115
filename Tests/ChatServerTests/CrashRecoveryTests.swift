import ChatServer
import ChatTestSupport
import Foundation
import Testing

@Suite("Durability: every message a client received survives SIGKILL (ARCHITECTURE.md, the path of a message)")
struct CrashRecoveryTests {
    @Test func killDashNineLosesNothingAnyoneSaw() async throws {
        let directory = TestServer.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // setup
        let server = try await ServerProcess.start(dataDirectory: directory, arguments: ["--announce-joins", "false"])
        let reader = try await WebSocketTestClient.connect(host: "127.0.0.1", port: server.httpPort, path: "/chat")
        let writer = try await LineClient.connect(host: "127.0.0.1", port: server.tcpPort)
        try await writer.write("iam:writer\n")
        try await writer.waitForLine("writer has joined")
        // act: keep sending while the process is killed.
        let sending = Task {
            for index in 0..<2000 {
                try? await writer.write("msg:m\(index)\n")
            }
        }
        var received: [TutorialMessage] = []
        while received.count < 200 {
            received.append(try await reader.nextJSON(TutorialMessage.self, timeout: .seconds(30)))
        }
        await server.kill()
        sending.cancel()
        while let frame = await reader.frames.next(timeout: .seconds(2)) {
            if let message = try? JSONDecoder().decode(TutorialMessage.self, from: Data(frame.payload)) { received.append(message) }
        }
        // validate: the restarted server's history starts with exactly what the reader saw, once each.
        let restarted = try await ServerProcess.start(dataDirectory: directory, arguments: ["--history-on-join", "5000"])
        let checker = try await WebSocketTestClient.connect(host: "127.0.0.1", port: restarted.httpPort, path: "/chat")
        var history: [TutorialMessage] = []
        while let frame = await checker.frames.next(timeout: .seconds(2)) {
            history.append(try JSONDecoder().decode(TutorialMessage.self, from: Data(frame.payload)))
        }
        #expect(history.count >= received.count)
        #expect(Array(history.prefix(received.count).map(\.id)) == received.map(\.id))
        #expect(Set(history.map(\.id)).count == history.count)
        #expect(history.map(\.message) == (0..<history.count).map { "m\($0)" })
        await restarted.terminate()
    }

    @Test("SIGTERM stops the real executable cleanly")
    func sigtermExitsCleanly() async throws {
        let directory = TestServer.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try await ServerProcess.start(dataDirectory: directory)
        let client = try await WebSocketTestClient.connect(host: "127.0.0.1", port: server.httpPort, path: "/chat")
        let status = await server.terminate()
        #expect(status == 0)
        #expect(try await client.nextCloseCode() == 1001)
    }
}
