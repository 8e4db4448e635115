import ChatCore
import ChatProtocol
import ChatTestSupport
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOPosix
import Testing

/// A store whose calls can stop answering, as a PostgreSQL connection lost under a query does (the driver never
/// answers): it counts the calls that reach it.
final class StallingStore: MessageStore {
    private struct State {
        var stalled = false
        var calls = 0
    }

    let base = InMemoryMessageStore()
    private let state = NIOLockedValueBox(State())

    var calls: Int { self.state.withLockedValue { $0.calls } }

    /// Room "r" on this store, its calls given up after 200 ms.
    func openRoom() async throws -> Room {
        try await Room.open(
            "r", on: MultiThreadedEventLoopGroup.singleton.next(),
            store: DeadlineMessageStore(self, limit: .milliseconds(200)), recentCapacity: 10,
            logger: Logger(label: "test"))
    }

    func stall(_ stalled: Bool) {
        self.state.withLockedValue { $0.stalled = stalled }
    }

    /// Counts the call, then waits (until cancelled) if stalled.
    private func arrive() async throws {
        let stalled = self.state.withLockedValue { state in
            state.calls += 1
            return state.stalled
        }
        if stalled { try await Task.sleep(for: .seconds(3600)) }
    }

    func append(_ messages: [StoredMessage], isolation: isolated (any Actor)?) async throws -> [StoredMessage] {
        try await self.arrive()
        return try await self.base.append(messages, isolation: isolation)
    }

    func appendEach(
        _ messages: [StoredMessage], isolation: isolated (any Actor)?
    ) async throws -> [Result<StoredMessage, RoomRejection>] {
        try await self.arrive()
        return try await self.base.appendEach(messages, isolation: isolation)
    }

    func latest(in room: RoomID, limit: Int) async throws -> [StoredMessage] {
        try await self.arrive()
        return await self.base.latest(in: room, limit: limit)
    }

    func page(in room: RoomID, before: Int64?, limit: Int) async throws -> [StoredMessage] {
        try await self.arrive()
        return try await self.base.page(in: room, before: before, limit: limit)
    }

    func message(from sender: UUID, clientMsgID: String) async throws -> StoredMessage? {
        try await self.arrive()
        return await self.base.message(from: sender, clientMsgID: clientMsgID)
    }

    func message(in room: RoomID, seq: Int64) async throws -> StoredMessage? {
        try await self.arrive()
        return await self.base.message(in: room, seq: seq)
    }

    func lastMessage(in room: RoomID, upTo last: Int64) async throws -> StoredMessage? {
        try await self.arrive()
        return await self.base.lastMessage(in: room, upTo: last)
    }

    func unreadCount(in room: RoomID, after seq: Int64, upTo last: Int64, for reader: UUID) async throws -> Int64 {
        try await self.arrive()
        return await self.base.unreadCount(in: room, after: seq, upTo: last, for: reader)
    }

    func unreadMentions(in room: RoomID, after seq: Int64, upTo last: Int64, for reader: UUID) async throws -> Int64 {
        try await self.arrive()
        return await self.base.unreadMentions(in: room, after: seq, upTo: last, for: reader)
    }

    func resolveMentions(_ request: MentionRequest, in room: RoomID) async throws -> Mentions {
        try await self.arrive()
        return await self.base.resolveMentions(request, in: room)
    }

    func lastSequence(in room: RoomID) async throws -> Int64 {
        try await self.arrive()
        return await self.base.lastSequence(in: room)
    }
}

@Suite("Room: a store that stops answering")
struct UnansweringStoreTests {
    let alice = Sender(name: "alice", id: UUID())

    @Test(
        "edits queued behind a store call that missed its deadline fail at once, not one deadline each, and the room recovers"
    )
    func queuedEventsFailTogether() async throws {
        // setup: a room whose store calls give up after 200 ms
        let store = StallingStore()
        let room = try await store.openRoom()
        let sink = RecordingSink(renderer: LineRenderer())
        room.join(sink)
        await room.waitUntilIdle()
        let outcomes = NIOLockedValueBox<[String: Result<StoredMessage, any Error>]>([:])
        let submit = { (body: DraftBody, clientMsgID: String) in
            room.submit(MessageDraft(sender: self.alice, body: body, clientMsgID: clientMsgID)) { result in
                outcomes.withLockedValue { $0[clientMsgID] = result }
            }
        }
        // act: the store stops answering under a send; nineteen edits queue behind it, each of which reads its
        // target from the store before it is committed alone
        store.stall(true)
        let callsBefore = store.calls
        submit(.message(text: "m0"), "m0")
        try? await eventually("the store is asked", within: .seconds(5)) { store.calls != callsBefore }
        try #require(store.calls > callsBefore)
        for number in 1...19 { submit(.edit(target: 1, text: "edit \(number)"), "e\(number)") }
        await room.waitUntilIdle()
        // validate: every one failed, and the store was asked once per round (the send's round, then the round of
        // the nineteen edits), not once per edit
        let failures = outcomes.withLockedValue { outcomes in
            outcomes.values.filter { result in
                if case .failure(let error) = result { return error is DeadlineExceeded } else { return false }
            }.count
        }
        #expect(failures == 20)
        #expect(store.calls - callsBefore == 2)
        // The store answers again: the next send is committed and delivered as the room's first message, with
        // its sender's receipt.
        store.stall(false)
        submit(.message(text: "m20"), "m20")
        await room.waitUntilIdle()
        #expect(try await sink.waitForLines(2) == ["1 alice: m20", "read 1"])
        #expect(outcomes.withLockedValue { try? $0["m20"]?.get().seq } == 1)
    }
}
