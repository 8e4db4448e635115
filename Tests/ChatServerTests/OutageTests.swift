import ChatProtocol
import ChatTestSupport
import Foundation
import NIOHTTP1
import Testing

/// A database that fails is not the user's mistake: it answers `unavailable` (error frame, or 503 with
/// `Retry-After`), is logged, and never becomes `forbidden` (PROTOCOL.md §6.1, §8.6).
@Suite("A failing database answers unavailable, never forbidden")
struct OutageTests {
    @Test(
        "membership cannot be read: the socket gets unavailable with the ref, HTTP gets 503, the log says why; it recovers"
    )
    func membershipUnavailable() async throws {
        let directory = TestServer.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try await ServerProcess.start(
            dataDirectory: directory, arguments: ["--log-format", "json", "--bcrypt-cost", "4"])
        let api = APIClient(host: "127.0.0.1", port: server.httpPort)
        let ann = try await api.send(
            .POST, "/register", json: RegisterRequest(username: "ann", password: "correct horse")
        )
        .decode(AuthSession.self)
        let socket = try await WebSocketTestClient.connect(
            host: "127.0.0.1", port: server.httpPort, path: "/api/v1/ws?token=\(ann.token)")
        _ = try await socket.nextJSON(HelloFrame.self)
        try await socket.send(.resume(ResumeRequest(rooms: [:])))
        // The resume reads memberships too: it must be over before they go away.
        _ = try await socket.next(.resumed, as: ResumedFrame.self)

        // The fault: the memberships table is gone, as after a bad manual change to the file.
        try await SQLiteStatement.run("ALTER TABLE memberships RENAME TO memberships_away", inDataDirectory: directory)
        try await socket.send(.send(SendRequest(room: "lobby", clientMsgID: "c1", text: "hello")))
        let error = try await socket.next(.error, as: ErrorFrame.self)
        #expect(error.code == .unavailable)
        #expect(error.ref == "c1")
        let history = try await api.get("/rooms/lobby/messages", token: ann.token)
        #expect(history.status == 503)
        #expect(history.headers.first(name: "Retry-After") == "1")
        #expect(try history.decode(APIErrorBody.self).code == .unavailable)
        let line = try await server.waitForOutput("membership could not be checked")
        #expect(line.contains("\"level\":\"error\""), "\(line)")

        // Repaired: the same clientMsgID goes through, once.
        try await SQLiteStatement.run("ALTER TABLE memberships_away RENAME TO memberships", inDataDirectory: directory)
        let ack = try await socket.acked(.send(SendRequest(room: "lobby", clientMsgID: "c1", text: "hello")))
        #expect(ack.seq >= 1)
        #expect(try await api.get("/rooms/lobby/messages", token: ann.token).status == 200)
        await socket.close()
        #expect(await server.terminate() == 0)
    }
}
