import ChatCore
import ChatTestSupport
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOPosix
import Testing

/// A shared store that checks senders as it commits, as PostgreSQL's does: it refuses every account's send from
/// `refused`, and holds its first commit until `open()` so that what is submitted meanwhile is one batch.
private final class RefusingStore: MessageStore {
    let base = InMemoryMessageStore()
    let refused: UUID
    private let gate = AsyncStream<Void>.makeStream()
    private let held = NIOLockedValueBox(true)
    /// Whether a commit waits at the gate now.
    private let holding = NIOLockedValueBox(false)
    var isHolding: Bool { self.holding.withLockedValue { $0 } }

    init(refusing refused: UUID) { self.refused = refused }

    func open() { self.gate.continuation.yield() }

    func append(_ messages: [StoredMessage], isolation: isolated (any Actor)?) async throws -> [StoredMessage] {
        try await self.appendEach(messages, isolation: isolation).map { try $0.get() }
    }

    func appendEach(
        _ messages: [StoredMessage], isolation: isolated (any Actor)?
    ) async throws -> [Result<StoredMessage, RoomRejection>] {
        if self.held.withLockedValue({ $0 }) {
            self.holding.withLockedValue { $0 = true }
            for await _ in self.gate.stream { break }
            self.held.withLockedValue { $0 = false }
            self.holding.withLockedValue { $0 = false }
        }
        let passing = messages.filter { !($0.isAccountSend && $0.sender.id == self.refused) }
        var stored = try await self.base.append(passing, isolation: nil).makeIterator()
        return messages.map { message in
            message.isAccountSend && message.sender.id == self.refused ? .failure(.forbidden) : .success(stored.next()!)
        }
    }

    func latest(in room: RoomID, limit: Int) async throws -> [StoredMessage] {
        await self.base.latest(in: room, limit: limit)
    }

    func page(in room: RoomID, before: Int64?, limit: Int) async throws -> [StoredMessage] {
        try await self.base.page(in: room, before: before, limit: limit)
    }

    func message(from sender: UUID, clientMsgID: String) async throws -> StoredMessage? {
        await self.base.message(from: sender, clientMsgID: clientMsgID)
    }

    func message(in room: RoomID, seq: Int64) async throws -> StoredMessage? {
        await self.base.message(in: room, seq: seq)
    }

    func lastMessage(in room: RoomID, upTo last: Int64) async throws -> StoredMessage? {
        try await self.base.lastMessage(in: room, upTo: last)
    }

    func unreadCount(in room: RoomID, after seq: Int64, upTo last: Int64, for reader: UUID) async throws -> Int64 {
        try await self.base.unreadCount(in: room, after: seq, upTo: last, for: reader)
    }

    func unreadMentions(in room: RoomID, after seq: Int64, upTo last: Int64, for reader: UUID) async throws -> Int64 {
        return await self.base.unreadMentions(in: room, after: seq, upTo: last, for: reader)
    }

    func resolveMentions(_ request: MentionRequest, in room: RoomID) async throws -> Mentions {
        return await self.base.resolveMentions(request, in: room)
    }

    func lastSequence(in room: RoomID) async throws -> Int64 {
        await self.base.lastSequence(in: room)
    }
}

@Suite("Room: drafts a store refuses as it commits")
struct CommitRefusalTests {
    let alice = Sender(name: "alice", id: UUID())
    let bob = Sender(name: "bob", id: UUID())

    /// Submits a draft and returns what it ended in, as a short string, once it is answered.
    func submit(_ room: Room, _ text: String, from sender: Sender, id: String) -> Task<String, Never> {
        let answer = AsyncStream<String>.makeStream()
        room.submit(MessageDraft(sender: sender, text: text, clientMsgID: id)) { result in
            switch result {
            case .success(let event): answer.continuation.yield("ok \(event.seq)")
            case .failure(let error): answer.continuation.yield("\(error)")
            }
        }
        return Task {
            for await text in answer.stream { return text }
            return "unanswered"
        }
    }

    @Test("refused drafts in the middle of a batch are answered so, repeats too; the rest is delivered gap-free")
    func refusedMidBatch() async throws {
        let store = RefusingStore(refusing: self.bob.id)
        let room = try await Room.open(
            "r", on: MultiThreadedEventLoopGroup.singleton.next(), store: store, recentCapacity: 10,
            logger: Logger(label: "test"))
        let sink = RecordingSink(renderer: LineRenderer())
        room.join(sink)
        let first = self.submit(room, "first", from: self.alice, id: "a0")
        try await eventually("the first commit waits in the store") { store.isHolding }
        let batch = [
            self.submit(room, "a1", from: self.alice, id: "a1"),
            self.submit(room, "b1", from: self.bob, id: "b1"),
            self.submit(room, "a2", from: self.alice, id: "a2"),
            self.submit(room, "b1", from: self.bob, id: "b1"),
        ]
        store.open()
        #expect(await first.value == "ok 1")
        var answers: [String] = []
        for task in batch { answers.append(await task.value) }
        #expect(answers == ["ok 2", "forbidden", "ok 3", "forbidden"])
        #expect(await self.submit(room, "a3", from: self.alice, id: "a3").value == "ok 4")
        // Each message is followed by its sender's receipt (what I write I have read).
        let messages = try await sink.waitForLines(8).filter { !$0.hasPrefix("read ") }
        #expect(messages == ["1 alice: first", "2 alice: a1", "3 alice: a2", "4 alice: a3"])
    }
}
