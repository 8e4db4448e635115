import ChatClient
import ChatProtocol
import ChatTestSupport
import Foundation
import Testing

/// The account a fake server greets.
private let fakeUser =
    ##"{"id":"6F1B1F0E-0F5E-4B53-9A3A-3E2C2B1A0F00","username":"ann","displayName":"Ann","avatarColor":"#4DB6AC","initials":"AN"}"##

/// `hello` and the lobby's `resumed` at seq 0: what a fake server says before anything else.
private let fakeGreeting = [
    ##"{"type":"hello","rooms":["lobby"],"user":\##(fakeUser)}"##,
    ##"{"type":"resumed","room":"lobby","latestSeq":0,"complete":true}"##,
]

/// A client signed in as ``fakeUser`` to a fake server on `port`.
private func fakeServerClient(port: Int) throws -> ChatClient {
    let session = try JSONDecoder().decode(
        AuthSession.self, from: Data(##"{"token":"t","expiresAt":0,"user":\##(fakeUser)}"##.utf8))
    return ChatClient(server: ServerAddress(host: "127.0.0.1", port: port), session: session, configuration: .forTests)
}

@Suite("Clients facing broken servers")
struct HostileServerTests {
    @Test("malformed frames from the server become error events; the client keeps going")
    func malformedFrames() async throws {
        // setup: a fake server that greets properly, then sends garbage, then a valid message
        let server = try await ScriptedWebSocketServer(frames: [
            ##"{"type":"hello","rooms":["lobby"],"user":\##(fakeUser)}"##,
            ##"{"type":"resumed","room":"lobby","latestSeq":6,"complete":true}"##,
            "this is not JSON {",
            ##"{"type":"message","room":"lobby"}"##,
            ##"[1,2,3]"##,
            ##"{"type":"from-the-future","x":1}"##,
            ##"{"type":"message","room":"lobby","seq":7,"id":"362BEF0D-7A35-42A0-B56C-69C63EB9842E","sender":{"id":"6F1B1F0E-0F5E-4B53-9A3A-3E2C2B1A0F00","name":"ann"},"kind":"message","text":"still here","date":1763784000123}"##,
        ])
        defer { Task { await server.close() } }
        let client = try fakeServerClient(port: server.port)
        // act
        let events = EventRecorder(await client.connect())
        // validate: three error events (not a crash), the unknown type ignored, then the good message
        var errors: [ChatClientError] = []
        let last = try await events.next("the valid message") { event in
            if case .error(let error) = event { errors.append(error) }
            if case .message = event { return true }
            return false
        }
        #expect(errors.count == 3)
        #expect(errors.allSatisfy { if case .malformedFrame = $0 { true } else { false } })
        if case .message(let message, _) = last { #expect(message.text == "still here" && message.seq == 7) }
        #expect(await client.connectionState == .connected)
        await client.stop()
    }

    @Test("an ack lost with the connection: the send goes again under the same clientMsgID and returns once")
    func lostAck() async throws {
        // setup: a server that closes instead of acknowledging the first send
        let server = try await AckLosingServer(greeting: fakeGreeting)
        defer { Task { await server.close() } }
        let client = try fakeServerClient(port: server.port)
        let events = EventRecorder(await client.connect())
        try await events.waitUntilConnected()
        // act
        let ack = try await client.send("are you there?", to: "lobby", clientMsgID: "only-once")
        // validate: sent on both connections, with one id; acknowledged once
        #expect(ack.clientMsgID == "only-once" && ack.seq == 1)
        #expect(server.sends == ["only-once", "only-once"])
        #expect(await client.pendingCount == 0)
        await client.stop()
    }

    @Test("a send whose ack never comes: cancelling the waiting task ends the wait; the message stays queued")
    func cancelledWait() async throws {
        // setup: a server that greets and then ignores everything
        let server = try await ScriptedWebSocketServer(frames: fakeGreeting)
        defer { Task { await server.close() } }
        let client = try fakeServerClient(port: server.port)
        let events = EventRecorder(await client.connect())
        try await events.waitUntilConnected()
        // act
        let waiting = Task { try await client.send("anyone?", to: "lobby") }
        try await eventually("the send waits in the outbox") { await client.pendingCount > 0 }
        waiting.cancel()
        // validate
        await #expect(throws: CancellationError.self) { try await waiting.value }
        #expect(await client.pendingCount == 1)
        await client.stop()
    }

    @Test("a TCP server that cuts lines anywhere: the line client reassembles them")
    func partialLines() async throws {
        // setup
        let server = try await ChunkedLineServer(chunks: [
            "Luke has jo", "ined\nLuke:hel", "lo: 12:30\r", "\nerr:na", "me must be\n",
            "gregg has left\nLuke:no newline at the end",
        ])
        defer { Task { await server.close() } }
        // act
        let client = try await LineChatClient.connect(host: "127.0.0.1", port: server.port, name: nil)
        var events: [LineChatEvent] = []
        for await event in client.events { events.append(event) }
        // validate
        #expect(
            events == [
                .joined("Luke"), .message(name: "Luke", text: "hello: 12:30"), .rejected("name must be"),
                .left("gregg"),
                .message(name: "Luke", text: "no newline at the end"), .closed,
            ])
    }

    @Test("the line splitter handles a line in many pieces and many lines in one piece")
    func lineSplitter() {
        var splitter = LineSplitter()
        #expect(splitter.append(Array("ab".utf8)).isEmpty)
        #expect(splitter.append(Array("c\r".utf8)).isEmpty)
        #expect(splitter.append(Array("\nd\ne\r\nf".utf8)) == ["abc", "d", "e"])
        #expect(splitter.hasPartialLine)
        #expect(splitter.finish() == "f")
        #expect(splitter.finish() == nil)
    }
}
