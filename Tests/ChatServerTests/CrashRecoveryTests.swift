import ChatProtocol
import ChatServer
import ChatTestSupport
import Foundation
import NIOHTTP1
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
            if let message = try? JSONDecoder().decode(TutorialMessage.self, from: Data(frame.payload)) {
                received.append(message)
            }
        }
        // validate: the restarted server's history starts with exactly what the reader saw, once each.
        let restarted = try await ServerProcess.start(
            dataDirectory: directory, arguments: ["--history-on-join", "5000"])
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
        #expect(try await client.nextCloseCode() == 1012)
    }
}

/// Where a client goes when its server is killed: the same server restarted on its SQLite file, or the other
/// node, already running on the same PostgreSQL database.
enum Recovery: String, CustomStringConvertible, CaseIterable, Sendable {
    case restartOnSQLite = "a restart on the same SQLite file"
    case otherPostgresNode = "the other node on the same PostgreSQL database"

    var description: String { self.rawValue }
}

@Suite("Durability of acknowledged modern sends (PROTOCOL.md §8.3)")
struct ModernCrashTests {
    @Test(
        "SIGKILL while clients send: every acked message is there exactly once, and retries add no copies",
        arguments: Recovery.allCases)
    func killDashNineWhileSending(recovery: Recovery) async throws {
        let directory = TestServer.makeTemporaryDirectory()
        let otherDirectory = TestServer.makeTemporaryDirectory()
        defer {
            try? FileManager.default.removeItem(atPath: directory)
            try? FileManager.default.removeItem(atPath: otherDirectory)
        }
        // setup
        var arguments = ["--bcrypt-cost", "4"]
        if recovery == .otherPostgresNode {
            // The two nodes' attachments directories are not shared: no attachment is sent here.
            arguments += [
                "--database-url", try await TestPostgres.shared().makeDatabase().url, "--attachments-shared", "true",
            ]
        }
        let server = try await ServerProcess.start(dataDirectory: directory, arguments: arguments)
        let otherNode =
            recovery == .otherPostgresNode
            ? try await ServerProcess.start(dataDirectory: otherDirectory, arguments: arguments) : nil
        let api = APIClient(host: "127.0.0.1", port: server.httpPort)
        let session = try await api.send(
            .POST, "/register", json: RegisterRequest(username: "ann", password: "correct horse")
        ).decode(AuthSession.self)
        let socket = try await WebSocketTestClient.connect(
            host: "127.0.0.1", port: server.httpPort, path: "/api/v1/ws?token=\(session.token)")
        // act: send steadily (under the rate limit), kill the server once some acks are in.
        let total = 60
        let sending = Task {
            for index in 0..<total {
                try? await socket.send(
                    .send(SendRequest(room: "lobby", clientMsgID: "k\(index)", text: "k\(index)")))
                try? await Task.sleep(for: .milliseconds(20))
            }
        }
        var acks: [String: AckFrame] = [:]
        while acks.count < 20 {
            let ack = try await socket.next(.ack, as: AckFrame.self, timeout: .seconds(30))
            acks[ack.clientMsgID] = ack
        }
        await server.kill()
        sending.cancel()
        while let frame = await socket.frames.next(timeout: .seconds(1)) {
            if case .ack(let ack) = try? ServerMessage.decode(Data(frame.payload)) { acks[ack.clientMsgID] = ack }
        }
        // validate: after a restart, or on the other node, every acked message is stored once; retrying everything
        // adds only the missing.
        var next = otherNode
        if next == nil { next = try await ServerProcess.start(dataDirectory: directory, arguments: arguments) }
        let restarted = try #require(next)
        let api2 = APIClient(host: "127.0.0.1", port: restarted.httpPort)
        let again = try await api2.send(.POST, "/login", json: LoginRequest(username: "ann", password: "correct horse"))
            .decode(AuthSession.self)
        var stored = try await api2.send(.GET, "/rooms/lobby/messages?limit=200", token: again.token).decode(
            HistoryPage.self
        ).messages
        #expect(Set(acks.values.map(\.id)).isSubset(of: Set(stored.map(\.id))))
        #expect(Set(stored.map(\.id)).count == stored.count)
        let retry = try await WebSocketTestClient.connect(
            host: "127.0.0.1", port: restarted.httpPort, path: "/api/v1/ws?token=\(again.token)")
        var retried: [String: AckFrame] = [:]
        for index in 0..<total {
            try await retry.send(
                .send(SendRequest(room: "lobby", clientMsgID: "k\(index)", text: "k\(index)")))
            let ack = try await retry.next(.ack, as: AckFrame.self, timeout: .seconds(30))
            retried[ack.clientMsgID] = ack
            try await Task.sleep(for: .milliseconds(100))  // stay under the rate limit
        }
        for (id, ack) in acks { #expect(retried[id] == ack, "retry of \(id) was not given the original ack") }
        stored = try await api2.send(.GET, "/rooms/lobby/messages?limit=200", token: again.token).decode(
            HistoryPage.self
        ).messages
        #expect(stored.count == total)
        #expect(Set(stored.map(\.text)).count == total)
        #expect(stored.map(\.seq) == (1...Int64(total)).map { $0 })
        await restarted.terminate()
    }
}
