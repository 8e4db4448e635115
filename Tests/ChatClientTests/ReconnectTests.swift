import ChatClient
import ChatProtocol
import ChatServer
import ChatTestSupport
import Foundation
import Testing

@Suite("ChatClient across server outages: reconnect, resume, outbox (PROTOCOL.md §8.2, §8.3)")
struct ReconnectTests {
    @Test("server down at start: login is unreachable, the connection waits and connects once the server is up")
    func serverDownAtStart() async throws {
        // setup: an account on a server that is then stopped, so its address refuses connections
        let first = try await TestServer.start()
        defer { try? FileManager.default.removeItem(atPath: first.configuration.dataDirectory) }
        let session = try await ChatAPI(server: first.address).register(username: "ann", password: "correct horse")
        await first.stop()
        let client = ChatClient(server: first.address, session: session, configuration: .forTests)
        // act and validate: HTTP says unreachable, the socket keeps trying
        let error = await #expect(throws: ChatClientError.self) {
            try await client.login(username: "ann", password: "correct horse")
        }
        guard case .unreachable = error else {
            Issue.record("expected unreachable, got \(String(describing: error))")
            return
        }
        let events = EventRecorder(await client.connect())
        try await events.waitFor(
            state: { if case .waitingToReconnect(2, _) = $0 { true } else { false } }, "a second wait")
        let server = try await first.startAgain()
        try await events.waitUntilConnected()
        let ack = try await client.send("made it", to: "lobby")
        #expect(ack.seq == 1)
        try await events.ownReceipt(for: ack, from: client)
        await client.stop()
        await server.stop()
    }

    @Test("server restarted mid-session: the client reconnects, resumes, and sees every message exactly once")
    func restartMidSession() async throws {
        // setup: the real executable, so the restart is a new process on the same port and data directory
        let directory = TestServer.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try await ServerProcess.start(dataDirectory: directory, arguments: ["--bcrypt-cost", "4"])
        let address = ServerAddress(host: "127.0.0.1", port: server.httpPort)
        let ann = ChatClient(server: address, configuration: .forTests)
        let bob = ChatClient(server: address, configuration: .forTests)
        try await ann.register(username: "ann", password: "correct horse")
        try await bob.register(username: "bob", password: "correct horse")
        let annEvents = EventRecorder(await ann.connect())
        let bobEvents = EventRecorder(await bob.connect())
        try await annEvents.waitUntilConnected()
        try await bobEvents.waitUntilConnected()
        try await bob.send("before", to: "lobby")
        _ = try await annEvents.messages(in: "lobby", through: "before")
        // act: restart; bob talks as soon as he is back, ann may still be away (replay) or back (live)
        await server.terminate()
        try await annEvents.waitFor(state: { if case .waitingToReconnect = $0 { true } else { false } }, "ann offline")
        let restarted = try await ServerProcess.start(
            dataDirectory: directory, httpPort: server.httpPort, tcpPort: server.tcpPort,
            arguments: ["--bcrypt-cost", "4"])
        try await bobEvents.waitUntilConnected()
        try await bob.send("during", to: "lobby")
        try await bob.send("after", to: "lobby")
        // validate: after "before" (seq 1), ann sees 2 and 3, once each and in order, replayed or live
        let seen = try await annEvents.messages(in: "lobby", through: "after")
        #expect(seen.map(\.text) == ["during", "after"])
        #expect(seen.map(\.seq) == [2, 3])
        #expect(await ann.lastSeq["lobby"] == 3)
        await ann.stop()
        await bob.stop()
        await restarted.terminate()
    }

    @Test("a send while offline is queued, then delivered exactly once when the server is back")
    func sendWhileOffline() async throws {
        // setup
        let directory = TestServer.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try await ServerProcess.start(dataDirectory: directory, arguments: ["--bcrypt-cost", "4"])
        let ann = ChatClient(server: ServerAddress(host: "127.0.0.1", port: server.httpPort), configuration: .forTests)
        try await ann.register(username: "ann", password: "correct horse")
        let events = EventRecorder(await ann.connect())
        try await events.waitUntilConnected()
        await server.terminate()
        try await events.waitFor(state: { if case .waitingToReconnect = $0 { true } else { false } }, "offline")
        // act: send while nothing listens
        let queued = Task { try await ann.send("sent while offline", to: "lobby") }
        while await ann.pendingCount == 0 { await Task.yield() }
        #expect(await ann.connectionState != .connected)
        let restarted = try await ServerProcess.start(
            dataDirectory: directory, httpPort: server.httpPort, tcpPort: server.tcpPort,
            arguments: ["--bcrypt-cost", "4"])
        let ack = try await queued.value
        try await ann.send("sentinel", to: "lobby")
        // validate: the socket delivered it once, and the server stored it once
        let seen = try await events.messages(in: "lobby", through: "sentinel")
        #expect(seen.filter { $0.text == "sent while offline" }.map(\.seq) == [ack.seq])
        let page = try await ann.history(room: "lobby")
        #expect(page.messages.map(\.text) == ["sent while offline", "sentinel"])
        #expect(await ann.pendingCount == 0)
        await ann.stop()
        await restarted.terminate()
    }

    @Test("stop fails a queued send with .stopped")
    func stopFailsQueued() async throws {
        let server = try await TestServer.start()
        defer { try? FileManager.default.removeItem(atPath: server.configuration.dataDirectory) }
        let ann = try await server.client(registering: "ann")
        await server.stop()
        let queued = Task { try await ann.send("never", to: "lobby") }
        while await ann.pendingCount == 0 { await Task.yield() }
        await ann.stop()
        await #expect(throws: ChatClientError.stopped) { try await queued.value }
    }
}

@Suite("Reconnect backoff")
struct ReconnectBackoffTests {
    @Test("the bound doubles from initial up to maximum; jitter stays between half the bound and the bound")
    func bounds() {
        let backoff = ReconnectBackoff(initial: .milliseconds(100), maximum: .seconds(1))
        #expect(
            (1...6).map { backoff.bound(forAttempt: $0) } == [
                .milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800), .seconds(1),
                .seconds(1),
            ])
        #expect(backoff.delay(forAttempt: 3, unit: 0) == .milliseconds(200))
        #expect(backoff.delay(forAttempt: 3, unit: 1) == .milliseconds(400))
        for attempt in 1...40 {
            let delay = backoff.delay(forAttempt: attempt)
            #expect(delay >= backoff.bound(forAttempt: attempt) / 2 && delay <= backoff.bound(forAttempt: attempt))
        }
    }
}

@Suite("Server addresses")
struct ServerAddressTests {
    @Test("URLs and host:port parse (a URL without a port means its scheme's, a bare host 8080); nonsense does not")
    func parsing() {
        #expect(ServerAddress("http://127.0.0.1:8080") == ServerAddress(host: "127.0.0.1", port: 8080))
        #expect(ServerAddress("localhost:9000/") == ServerAddress(host: "localhost", port: 9000))
        #expect(
            ServerAddress("https://chat.example.org")
                == ServerAddress(host: "chat.example.org", port: 443, secure: true))
        #expect(ServerAddress("http://chat.example.org/") == ServerAddress(host: "chat.example.org", port: 80))
        #expect(ServerAddress("ws://chat.example.org")?.webSocketURL("/chat") == "ws://chat.example.org:80/chat")
        #expect(ServerAddress("localhost") == ServerAddress(host: "localhost", port: 8080))
        #expect(ServerAddress("ws://h:1/api/v1/ws")?.webSocketURL("/chat") == "ws://h:1/chat")
        #expect(ServerAddress("http://h:99999") == nil)
        #expect(ServerAddress("") == nil)
    }
}
