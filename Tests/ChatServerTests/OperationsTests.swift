import ChatProtocol
import ChatServer
import ChatTestSupport
import Foundation
import NIOCore
import NIOHTTP1
import Testing

/// What an operator relies on: health and readiness, a drain before a restart, logs a machine can read and that
/// never hold a secret (issue 16).
@Suite("Operations: health, readiness, drain, logs (docs/OPERATIONS.md)")
struct OperationsTests {
    @Test("/healthz, /readyz and /health answer without a token")
    func healthAndReadiness() async throws {
        try await withTestServer({ $0.nodeName = "chat-a" }) { server in
            #expect(try await server.raw(.GET, "/healthz").status == 200)
            #expect(try await server.raw(.GET, "/health").status == 200)
            let ready = try await server.raw(.GET, "/readyz")
            #expect(ready.status == 200)
            let report = try JSONDecoder().decode(ReadinessReport.self, from: ready.body)
            #expect(report.status == "ready")
            #expect(report.node == "chat-a")
            #expect(report.checks["store"] == "ok")
            #expect(report.checks["draining"] == "no")
        }
    }

    @Test(
        "SIGTERM: /readyz turns 503 at once while the server still serves, then WebSockets get 1012 and TCP a last line"
    )
    func drainBeforeRestart() async throws {
        let directory = TestServer.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try await ServerProcess.start(dataDirectory: directory, arguments: ["--drain-seconds", "3"])
        let base = APIClient(baseURL: "http://127.0.0.1:\(server.httpPort)")
        let ws = try await WebSocketTestClient.connect(host: "127.0.0.1", port: server.httpPort, path: "/chat")
        let tcp = try await LineClient.connect(host: "127.0.0.1", port: server.tcpPort)
        try await tcp.write("iam:ann\n")
        try await tcp.waitForLine("ann has joined")
        #expect(try await base.get("/readyz").status == 200)
        let stopping = Task { await server.terminate() }
        try await eventually { (try? await base.get("/readyz"))?.status == 503 }
        let report = try JSONDecoder().decode(ReadinessReport.self, from: try await base.get("/readyz").body)
        #expect(report.checks["draining"] == "yes")
        // Still serving while draining: a message goes through.
        try await tcp.write("msg:during the drain\n")
        try await tcp.waitForLine("ann:during the drain")
        #expect(try await ws.nextCloseCode(timeout: .seconds(15)) == 1012)
        try await tcp.waitForLine("err:server is restarting; reconnect", timeout: .seconds(15))
        let status = await stopping.value
        #expect(status == 0, "exit status \(status); the server's last lines: \(server.output.drain().suffix(30))")
    }

    @Test("--log-format json writes one JSON object per line, with time, level, label and message")
    func jsonLogs() async throws {
        let directory = TestServer.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try await ServerProcess.start(
            dataDirectory: directory, arguments: ["--log-format", "json", "--log-level", "debug"])
        _ = try await APIClient(baseURL: "http://127.0.0.1:\(server.httpPort)").get("/healthz")
        await server.terminate()
        let lines = server.output.drain()
        #expect(!lines.isEmpty)
        for line in lines {
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(
                object?["time"] != nil && object?["level"] != nil && object?["label"] != nil
                    && object?["message"] != nil, "\(line)")
        }
        #expect(lines.contains { $0.contains("GET /healthz 200") })
    }

    @Test("a dropped slow client is logged at notice, in JSON, with conn, proto, node and the reason")
    func evictionLogged() async throws {
        let directory = TestServer.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try await ServerProcess.start(
            dataDirectory: directory, arguments: ["--log-format", "json", "--outbound-queue-bytes", "16384"])
        // A client that sends pings and never reads the pongs (ExhaustionTests.pingFlood).
        let flooder = try await StalledClient.connect(host: "127.0.0.1", port: server.httpPort, path: "/echo/?id=flood")
        let ping = WebSocketTestClient.frame(
            opcode: WebSocketTestClient.Opcode.ping, payload: Array(repeating: 0x61, count: 125))
        let burst = Array((0..<100).map { _ in ping }.joined())
        // A write waits for room in the socket; should the server stop reading without closing, the flooder is
        // closed after three minutes (failing the writes still pending), so the test fails instead of hanging. The
        // server gives up once about 4 MB of pongs fill the kernel's send buffer: seconds on a quiet machine, over a
        // minute for this debug build beside every other suite on two cores.
        let flooding = Task {
            var written = 0
            for _ in 0..<3000 {
                do { try await flooder.channel.writeAndFlush(ByteBuffer(bytes: burst)) } catch { break }
                written += 1
            }
            return written
        }
        let watchdog = Task {
            try await Task.sleep(for: .seconds(180))
            await flooder.close()
        }
        let bursts = await flooding.value
        watchdog.cancel()
        await flooder.close()
        let line: String
        do {
            line = try await server.waitForOutput("dropped a slow client")
        } catch {
            throw TestClientError("nothing logged after \(bursts) of 3,000 bursts of pings were written: \(error)")
        }
        await server.terminate()
        let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]) ?? [:]
        #expect(object["proto"] as? String == "echo" && object["reason"] as? String == "pong_backlog", "\(line)")
        #expect(object["conn"] != nil && object["node"] != nil && object["level"] as? String == "notice", "\(line)")
    }

    @Test("no token, password or message text reaches the log, even at trace with the access log on")
    func noSecretsInLogs() async throws {
        let directory = TestServer.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try await ServerProcess.start(
            dataDirectory: directory, arguments: ["--log-level", "trace", "--access-log", "true", "--bcrypt-cost", "4"])
        let api = APIClient(host: "127.0.0.1", port: server.httpPort)
        let password = "hunter2-secret-password"
        let session = try await api.send(.POST, "/register", json: RegisterRequest(username: "ann", password: password))
            .decode(AuthSession.self)
        _ = try await api.send(.POST, "/login", json: LoginRequest(username: "ann", password: "wrong-\(password)"))
        let socket = try await WebSocketTestClient.connect(
            host: "127.0.0.1", port: server.httpPort, path: "/api/v1/ws?token=\(session.token)")
        try await socket.send(text: #"{"type":"resume","rooms":{}}"#)
        try await socket.send(text: #"{"type":"send","room":"lobby","clientMsgID":"c1","text":"a private sentence"}"#)
        _ = try await socket.nextText()
        _ = try await api.get("/me", token: session.token)
        _ = try await api.get("/attachments/\(UUID())?token=\(session.token)")
        await socket.close()
        await server.terminate()
        let log = server.output.drain().joined(separator: "\n")
        #expect(log.contains("GET /api/v1/me 200"))
        #expect(!log.contains(session.token))
        #expect(!log.contains(password))
        #expect(!log.contains("a private sentence"))
        #expect(!log.contains("$2b$"))
    }
}

@Suite("Backups while the server runs (docs/OPERATIONS.md)")
struct BackupTests {
    @Test(
        "chat-server backup copies the database and its attachments under load; restore verifies them and a server on the restored directory serves every acknowledged message and attachment"
    )
    func backupAndRestoreUnderLoad() async throws {
        let directory = TestServer.makeTemporaryDirectory()
        let backupParent = TestServer.makeTemporaryDirectory()
        let restored = TestServer.makeTemporaryDirectory() + "/data"
        defer {
            for path in [directory, backupParent, restored] { try? FileManager.default.removeItem(atPath: path) }
        }
        let server = try await TestServer.start(dataDirectory: directory) { $0.announceJoins = false }
        let ann = try await server.register("ann")
        let socket = try await server.modernClient(ann)
        // Acknowledged before the backup: each must come back, with its attachment's bytes.
        var acknowledged: [(seq: Int64, attachment: UUID, bytes: [UInt8])] = []
        for index in 0..<5 {
            let bytes = pngBytes(width: UInt32(10 + index), height: 10)
            let upload = try await server.api.send(
                .POST, "/attachments?name=p\(index).png", bytes: bytes, contentType: "image/png", token: ann.token
            ).decode(AttachmentPayload.self)
            let ack = try await socket.acked(
                .send(
                    SendRequest(
                        room: "lobby", clientMsgID: "p\(index)", text: "picture \(index)",
                        attachments: [upload.id.uuidString])))
            acknowledged.append((ack.seq, upload.id, bytes))
        }
        let writer = try await LineClient.connect(host: "127.0.0.1", port: server.tcpPort)
        try await writer.write("iam:writer\n")
        try await writer.waitForLine("writer has joined")
        let sending = Task {
            for index in 1..<3000 { try? await writer.write("msg:m\(index)\n") }
        }
        let executable = try #require(ServerProcess.executableURL)
        let folder = backupParent + "/backup"
        let backup = try await runToEnd(
            executable, arguments: ["backup", "--data-dir", directory, "--to", folder], withStandardError: true)
        #expect(backup.status == 0, "\(backup.output)")
        #expect(backup.output.contains("5 attachment files"), "\(backup.output)")
        // Refused, not overwritten, the second time.
        #expect(
            try await runToEnd(executable, arguments: ["backup", "--data-dir", directory, "--to", folder]).status != 0)
        _ = await sending.value
        for path in [folder + "/chat.sqlite", folder + "/manifest.json"] {
            let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int ?? 0
            #expect(mode & 0o777 == 0o600, "\(path)")
        }

        // Refused while the server uses the directory, and into a directory that holds a database.
        let busy = try await runToEnd(
            executable, arguments: ["restore", "--from", folder, "--data-dir", directory], withStandardError: true)
        #expect(busy.status != 0 && busy.output.contains("stop the server first"), "\(busy.output)")
        await server.stop()
        let occupied = try await runToEnd(
            executable, arguments: ["restore", "--from", folder, "--data-dir", directory], withStandardError: true)
        #expect(occupied.status != 0 && occupied.output.contains("empty directory"), "\(occupied.output)")

        let restore = try await runToEnd(
            executable, arguments: ["restore", "--from", folder, "--data-dir", restored], withStandardError: true)
        #expect(restore.status == 0, "\(restore.output)")
        let copy = try await TestServer.start(dataDirectory: restored)
        let session = try await copy.api.send(.login, json: LoginRequest(username: "ann", password: "correct horse"))
            .decode(AuthSession.self)
        // The page ending with the pictures: the writer's messages after them may be more than a page.
        let before = String((acknowledged.last?.seq ?? 0) + 1)
        let page = try await copy.api.send(
            .history, "lobby", query: [("limit", "200"), ("before", before)], token: session.token
        ).decode(HistoryPage.self)
        for (seq, attachment, bytes) in acknowledged {
            #expect(page.messages.first { $0.seq == seq }?.attachments?.first?.id == attachment, "message \(seq)")
            let fetched = try await copy.api.get("/attachments/\(attachment)", token: session.token)
            #expect(fetched.status == 200 && Array(fetched.body) == bytes, "attachment of \(seq)")
        }
        await copy.stop()
    }

    @Test("restore refuses a backup whose attachment was changed, or whose manifest is missing, and writes nothing")
    func restoreRefusesDamage() async throws {
        let directory = TestServer.makeTemporaryDirectory()
        let folder = TestServer.makeTemporaryDirectory() + "/backup"
        let target = TestServer.makeTemporaryDirectory() + "/data"
        let server = try await TestServer.start(dataDirectory: directory)
        let ann = try await server.register("ann")
        let upload = try await server.api.send(
            .POST, "/attachments?name=a.png", bytes: pngBytes(width: 4, height: 4), contentType: "image/png",
            token: ann.token
        ).decode(AttachmentPayload.self)
        let socket = try await server.modernClient(ann)
        _ = try await socket.acked(
            .send(SendRequest(room: "lobby", clientMsgID: "a", text: "", attachments: [upload.id.uuidString])))
        let executable = try #require(ServerProcess.executableURL)
        #expect(
            try await runToEnd(executable, arguments: ["backup", "--data-dir", directory, "--to", folder]).status == 0)
        await server.stop()

        let stored = try #require(
            FileManager.default.enumerator(atPath: folder + "/attachments")?.allObjects
                .compactMap { $0 as? String }.first { $0.count > 40 })
        let handle = try #require(FileHandle(forWritingAtPath: folder + "/attachments/" + stored))
        try handle.seek(toOffset: 20)
        try handle.write(contentsOf: Data([0xFF]))
        try handle.close()
        let damaged = try await runToEnd(
            executable, arguments: ["restore", "--from", folder, "--data-dir", target], withStandardError: true)
        #expect(damaged.status != 0 && damaged.output.contains("SHA-256"), "\(damaged.output)")
        #expect(!FileManager.default.fileExists(atPath: target + "/chat.sqlite"))

        try FileManager.default.removeItem(atPath: folder + "/manifest.json")
        let unmade = try await runToEnd(
            executable, arguments: ["restore", "--from", folder, "--data-dir", target], withStandardError: true)
        #expect(unmade.status != 0 && unmade.output.contains("manifest.json"), "\(unmade.output)")
    }
}

/// The body of `/readyz`.
struct ReadinessReport: Decodable {
    let status: String
    let node: String
    let checks: [String: String]
}
