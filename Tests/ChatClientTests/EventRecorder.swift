import ChatClient
import ChatProtocol
import ChatTestSupport
import Foundation

/// Collects a client's events so a test can wait for the one it needs; waits are bounded so a broken client
/// fails the test instead of hanging it.
final class EventRecorder: Sendable {
    let inbox = Inbox<ChatEvent>()

    init(_ events: AsyncStream<ChatEvent>) {
        let inbox = self.inbox
        Task {
            for await event in events { inbox.push(event) }
            inbox.finish()
        }
    }

    /// Skips events until one matches; returns it.
    @discardableResult
    func next(_ what: String, timeout: Duration = .seconds(10), where predicate: (ChatEvent) -> Bool) async throws
        -> ChatEvent
    {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            guard let event = await self.inbox.next(timeout: deadline - ContinuousClock.now) else { break }
            if predicate(event) { return event }
        }
        throw TestClientError("never received \(what)")
    }

    /// Waits for a state.
    func waitFor(state matches: (ConnectionState) -> Bool, _ what: String, timeout: Duration = .seconds(10))
        async throws
    {
        try await self.next(what, timeout: timeout) { event in
            if case .state(let state) = event { return matches(state) }
            return false
        }
    }

    func waitUntilConnected() async throws {
        try await self.waitFor(state: { $0 == .connected }, "connected")
    }

    /// Waits for the receipt the server sends when it moves the sender's read position after `ack`.
    ///
    /// The server does that in a task of its own after the ack (PROTOCOL.md §8.5); stopping an in-process server
    /// before it finishes can crash the test process (reported to the server side), so tests that stop the server
    /// right after a send wait for this first.
    func ownReceipt(for ack: Ack, from client: ChatClient) async throws {
        let me = await client.session?.user.id
        try await self.next("my receipt for \(ack.room) #\(ack.seq)") { event in
            if case .receipt(let receipt) = event {
                return receipt.user == me && receipt.room == ack.room && receipt.seq == ack.seq
            }
            return false
        }
    }

    /// Collects the messages of `room` until one with `text` arrives (that one included).
    func messages(in room: String, through text: String, timeout: Duration = .seconds(10)) async throws
        -> [MessagePayload]
    {
        var collected: [MessagePayload] = []
        try await self.next("a message \"\(text)\"", timeout: timeout) { event in
            guard case .message(let message, _) = event, message.room == room else { return false }
            collected.append(message)
            return message.text == text
        }
        return collected
    }
}

extension TestServer {
    var address: ServerAddress { ServerAddress(host: self.host, port: self.httpPort) }

    /// A client with a freshly registered account, small backoff, no client pings.
    func client(registering username: String) async throws -> ChatClient {
        let client = ChatClient(server: self.address, configuration: .forTests)
        try await client.register(username: username, password: "correct horse")
        return client
    }
}

extension ChatClient.Configuration {
    /// Reconnects quickly so tests stay short; the server's pings keep the connection honest.
    static var forTests: ChatClient.Configuration {
        var configuration = ChatClient.Configuration()
        configuration.backoff = ReconnectBackoff(initial: .milliseconds(50), maximum: .milliseconds(400))
        configuration.pingInterval = nil
        configuration.retryAfterTransientError = .milliseconds(100)
        return configuration
    }
}
