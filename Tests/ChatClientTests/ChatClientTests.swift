import ChatClient
import ChatProtocol
import ChatServer
import ChatTestSupport
import Foundation
import Testing

@Suite("ChatClient against a real server (PROTOCOL.md §6–§8)")
struct ChatClientTests {
    @Test("a wrong password is invalid_credentials, and the client stays signed out")
    func wrongPassword() async throws {
        try await withTestServer { server in
            // setup
            _ = try await server.client(registering: "ann")
            let client = ChatClient(server: server.address, configuration: .forTests)
            // act
            let error = await #expect(throws: ChatClientError.self) {
                try await client.login(username: "ann", password: "not the password")
            }
            // validate
            #expect(error == .server(status: 401, code: .invalidCredentials, message: "Wrong username or password."))
            #expect(await client.session == nil)
            await #expect(throws: ChatClientError.notSignedIn) { try await client.send("hi", to: "lobby") }
        }
    }

    @Test("an unknown server is unreachable, for HTTP calls and for the connection")
    func unknownServer() async throws {
        // setup: a name that can never resolve (RFC 6761 reserves .invalid)
        let client = ChatClient(server: ServerAddress(host: "swiftchat.invalid", port: 8080), configuration: .forTests)
        // act and validate
        let error = await #expect(throws: ChatClientError.self) {
            try await client.login(username: "ann", password: "correct horse")
        }
        guard case .unreachable = error else {
            Issue.record("expected unreachable, got \(String(describing: error))")
            return
        }
    }

    @Test("a send is acknowledged with its seq, and the sender's own message arrives once")
    func sendAndReceive() async throws {
        try await withTestServer { server in
            // setup
            let ann = try await server.client(registering: "ann")
            let bob = try await server.client(registering: "bob")
            let annEvents = EventRecorder(await ann.connect())
            let bobEvents = EventRecorder(await bob.connect())
            try await annEvents.waitUntilConnected()
            try await bobEvents.waitUntilConnected()
            // act
            let ack = try await ann.send("hello bob", to: "lobby", clientMsgID: "c1")
            // validate
            #expect(ack.clientMsgID == "c1" && ack.room == "lobby" && ack.seq == 1)
            let seen = try await bobEvents.messages(in: "lobby", through: "hello bob")
            #expect(seen.map(\.seq) == [1] && seen.first?.sender.name == "ann")
            let own = try await annEvents.next("own message") { if case .message(_, "c1") = $0 { true } else { false } }
            if case .message(let message, _) = own { #expect(message.id == ack.id) }
            try await annEvents.ownReceipt(for: ack, from: ann)
            await ann.stop()
            await bob.stop()
        }
    }

    @Test("a retry with the same clientMsgID gets the first ack; nothing is stored twice")
    func idempotentRetry() async throws {
        try await withTestServer { server in
            let ann = try await server.client(registering: "ann")
            let events = EventRecorder(await ann.connect())
            try await events.waitUntilConnected()
            let first = try await ann.send("once", to: "lobby", clientMsgID: "same")
            try await events.ownReceipt(for: first, from: ann)
            let second = try await ann.send("once", to: "lobby", clientMsgID: "same")
            #expect(first == second)
            // The retry is neither stored nor delivered again: the next message to arrive is the next one sent.
            let third = try await ann.send("twice", to: "lobby", clientMsgID: "other")
            #expect(try await events.messages(in: "lobby", through: "twice").map(\.text) == ["twice"])
            try await events.ownReceipt(for: third, from: ann)
            let page = try await ann.history(room: "lobby")
            #expect(page.messages.map(\.text) == ["once", "twice"])
            await ann.stop()
        }
    }

    @Test("a refused send throws the server's code and leaves the outbox empty")
    func rejectedSend() async throws {
        try await withTestServer { server in
            let ann = try await server.client(registering: "ann")
            let events = EventRecorder(await ann.connect())
            try await events.waitUntilConnected()
            await #expect(
                throws: ChatClientError.rejected(
                    code: .forbidden, message: "You are not a member of that room, or it does not exist.")
            ) {
                try await ann.send("hello?", to: "no-such-room")
            }
            let tooLong = String(repeating: "x", count: 5000)
            let error = await #expect(throws: ChatClientError.self) { try await ann.send(tooLong, to: "lobby") }
            #expect(error?.code == .tooLong)
            #expect(await ann.pendingCount == 0)
            await ann.stop()
        }
    }

    @Test(
        "a token the server refuses stops the client with failed(unauthorized) instead of retrying forever; sends then throw"
    )
    func refusedToken() async throws {
        try await withTestServer { server in
            let real = try await server.client(registering: "ann")
            guard var session = await real.session else { throw TestClientError("no session") }
            session.token = String(repeating: "A", count: 43)
            let client = ChatClient(server: server.address, session: session, configuration: .forTests)
            let events = EventRecorder(await client.connect())
            try await events.waitFor(state: { $0 == .failed(.unauthorized) }, "failed(unauthorized)")
            #expect(await client.connectionState == .failed(.unauthorized))
            // A send now is refused at once instead of waiting for a connection that will not come back.
            await #expect(throws: ChatClientError.unauthorized) { try await client.send("hello?", to: "lobby") }
        }
    }

    @Test("history pages backwards with hasMore as the end marker")
    func historyPaging() async throws {
        try await withTestServer { server in
            let ann = try await server.client(registering: "ann")
            let events = EventRecorder(await ann.connect())
            try await events.waitUntilConnected()
            for index in 1...5 { try await events.ownReceipt(for: ann.send("m\(index)", to: "lobby"), from: ann) }
            let newest = try await ann.history(room: "lobby", limit: 3)
            #expect(newest.messages.map(\.seq) == [3, 4, 5] && newest.hasMore)
            let older = try await ann.history(room: "lobby", before: 3, limit: 3)
            #expect(older.messages.map(\.seq) == [1, 2] && !older.hasMore)
            await ann.stop()
        }
    }
}
