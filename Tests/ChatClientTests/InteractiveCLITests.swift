import ChatClient
import ChatProtocol
import ChatTestSupport
import Foundation
import Testing

@Suite("The interactive chat client, typed at as a person would")
struct InteractiveCLITests {
    @Test(
        "sign in, chat in the lobby and a DM, the slash commands, a server restart with nothing lost or repeated, /quit"
    )
    func session() async throws {
        // setup: the real server, so it can be restarted; bob is a library client
        let directory = TestServer.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try await ServerProcess.start(dataDirectory: directory, arguments: ["--bcrypt-cost", "4"])
        let address = ServerAddress(host: "127.0.0.1", port: server.httpPort)
        let bob = ChatClient(server: address, configuration: .forTests)
        try await bob.register(username: "bob", password: "correct horse")
        let bobEvents = EventRecorder(await bob.connect())
        try await bobEvents.waitUntilConnected()
        try await bob.send("before ann came", to: "lobby")
        let ann = ChatClient(server: address, configuration: .forTests)
        try await ann.register(username: "ann", password: "correct horse")
        let chat = try InteractiveProcess(
            try chatExecutable(), arguments: ["--server", "http://127.0.0.1:\(server.httpPort)", "-u", "ann"],
            environment: ["CHAT_PASSWORD": "correct horse", "CHAT_CONFIG": directory + "/chat.json"])

        // the room list with unread counts, then the lobby's history
        let start = try await chat.lines(through: "Type /help")
        #expect(start.contains { $0.contains("#Lobby (1)") })
        #expect(start.contains { $0.contains("bob: before ann came") })
        // messages both ways in the lobby
        try await bob.send("hi ann", to: "lobby")
        try await chat.lines(through: "bob: hi ann")
        chat.type("hello bob")
        _ = try await bobEvents.messages(in: "lobby", through: "hello bob")
        try await chat.lines(through: "ann: hello bob")
        // a DM
        chat.type("/dm bob")
        try await chat.lines(through: "== @bob")
        chat.type("just between us")
        let direct = try await bobEvents.messages(
            in: try #require(await bob.rooms().first { $0.kind == .known(.direct) }?.id), through: "just between us")
        #expect(direct.map(\.text) == ["just between us"])
        // the other commands
        chat.type("/rooms")
        try await chat.lines(through: "#Lobby")
        chat.type("/search hello")
        try await chat.lines(through: "hello bob")
        chat.type("/history 1")
        try await chat.lines(through: "ann: just between us")
        chat.type("/help")
        try await chat.lines(through: "/quit")

        // the server restarts; ann types while it is down
        await server.terminate()
        try await chat.lines(through: "-- offline")
        chat.type("sent while offline")
        let restarted = try await ServerProcess.start(
            dataDirectory: directory, httpPort: server.httpPort, tcpPort: server.tcpPort,
            arguments: ["--bcrypt-cost", "4"])
        try await chat.lines(through: "-- connected")
        // (bob may get it replayed or live, before or after his own reconnection: his recorder keeps every event)
        let received = try await bobEvents.messages(
            in: direct[0].room, through: "sent while offline", timeout: .seconds(20))
        #expect(received.filter { $0.text == "sent while offline" }.count == 1)
        try await bob.send("welcome back", to: direct[0].room)
        try await bob.send("last one", to: direct[0].room)
        // validate: ann's queued line arrived once, and ann saw each of bob's messages once
        let shown = try await chat.lines(through: "bob: last one")
        #expect(shown.filter { $0.contains("bob: welcome back") }.count == 1)
        #expect(
            try await bob.history(room: direct[0].room).messages.filter { $0.text == "sent while offline" }.count == 1)

        // /quit ends with status 0; the output had no colour codes (it is not a terminal)
        chat.type("/quit")
        #expect(await chat.waitForExit() == 0)
        #expect(!chat.output.drain().contains { $0.contains("\u{1B}[") } && !shown.contains { $0.contains("\u{1B}[") })
        await bob.stop()
        await restarted.terminate()
    }
}
