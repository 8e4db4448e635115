import ChatCore
import ChatProtocol
import ChatTestSupport
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import Testing

/// Renders each event as a short line, so tests can read what a member saw.
final class LineRenderer: EventRenderer {
    func render(_ event: RoomEvent) -> ByteBuffer? {
        switch event {
        case .message(let message) where message.kind == .message:
            ByteBuffer(string: "\(message.seq) \(message.sender.name): \(message.text)")
        case .message(let event):
            ByteBuffer(
                string:
                    "\(event.seq) \(event.sender.name) \(event.kind.rawValue) \(event.target ?? 0)\(event.emoji.map { " " + $0 } ?? "")"
            )
        case .presence(let change): ByteBuffer(string: "\(change.name) \(change.kind == .joined ? "joined" : "left")")
        case .resumed(_, let latestSeq, let complete): ByteBuffer(string: "resumed \(latestSeq) \(complete)")
        case .receipt(_, _, let seq): ByteBuffer(string: "read \(seq)")
        case .typing(_, let user): ByteBuffer(string: "typing \(user.name)")
        }
    }
}

/// A member that records what it receives and, for each message, whether the store already had it.
final class RecordingSink: EventSink {
    let eventLoop: any EventLoop = MultiThreadedEventLoopGroup.singleton.any()
    let renderer: any EventRenderer
    let accountID: UUID?
    private let received = NIOLockedValueBox<[String]>([])
    private let flushes = NIOLockedValueBox(0)

    init(renderer: any EventRenderer, account: UUID? = nil) {
        self.renderer = renderer
        self.accountID = account
    }

    var lines: [String] { self.received.withLockedValue { $0 } }
    var flushCount: Int { self.flushes.withLockedValue { $0 } }

    func write(_ payload: ByteBuffer) {
        self.eventLoop.preconditionInEventLoop()
        self.received.withLockedValue { $0.append(String(buffer: payload)) }
    }

    func flush() {
        self.flushes.withLockedValue { $0 += 1 }
    }

    /// Waits until `count` lines arrived (the room delivers on the sink's event loop).
    func waitForLines(_ count: Int) async throws -> [String] {
        try? await eventually("\(count) lines", within: .seconds(5)) { self.lines.count >= count }
        return self.lines
    }
}

/// Room "r" on `store`, keeping `recent` messages for history bursts.
func openTestRoom(_ store: InMemoryMessageStore, recent: Int = 10) async throws -> Room {
    try await Room.open(
        "r", on: MultiThreadedEventLoopGroup.singleton.next(), store: store, recentCapacity: recent,
        logger: Logger(label: "test"))
}

@Suite("Room: sequencing, commit before delivery, fan-out")
struct RoomTests {
    let renderer = LineRenderer()
    let alice = Sender(name: "alice", id: UUID())

    @Test func sequencesGapFreeAndDeliversInOrderAfterStoring() async throws {
        // setup
        let store = InMemoryMessageStore()
        let room = try await openTestRoom(store)
        let sink = RecordingSink(renderer: self.renderer)
        room.join(sink)
        // act
        for index in 1...300 {
            room.submit(MessageDraft(sender: self.alice, text: "m\(index)"))
        }
        await room.waitUntilIdle()
        // validate
        let lines = try await sink.waitForLines(300)
        #expect(lines == (1...300).map { "\($0) alice: m\($0)" })
        let stored = await store.latest(in: "r", limit: 1000)
        #expect(stored.map(\.seq) == Array(1...300))
    }

    @Test func continuesTheSequenceOfAReopenedRoom() async throws {
        let store = InMemoryMessageStore()
        let first = try await openTestRoom(store)
        first.submit(MessageDraft(sender: self.alice, text: "one"))
        await first.waitUntilIdle()
        let reopened = try await openTestRoom(store)
        let sink = RecordingSink(renderer: self.renderer)
        reopened.join(sink, history: 5)
        reopened.submit(MessageDraft(sender: self.alice, text: "two"))
        await reopened.waitUntilIdle()
        #expect(try await sink.waitForLines(2) == ["1 alice: one", "2 alice: two"])
    }

    @Test("a failed commit delivers nothing, tells the sender, and reuses the sequence numbers")
    func failedCommit() async throws {
        let store = InMemoryMessageStore()
        let room = try await openTestRoom(store)
        let sink = RecordingSink(renderer: self.renderer)
        room.join(sink)
        await room.waitUntilIdle()
        store.failNextAppends(1)
        let outcome = NIOLockedValueBox<Result<StoredMessage, any Error>?>(nil)
        room.submit(MessageDraft(sender: self.alice, text: "lost")) { result in outcome.withLockedValue { $0 = result }
        }
        await room.waitUntilIdle()
        room.submit(MessageDraft(sender: self.alice, text: "kept"))
        await room.waitUntilIdle()
        #expect(try await sink.waitForLines(1) == ["1 alice: kept"])
        let failed = outcome.withLockedValue { result -> Bool in
            if case .failure = result { return true } else { return false }
        }
        #expect(failed)
        #expect(await store.latest(in: "r", limit: 10).map(\.text) == ["kept"])
    }

    @Test func sendsRecentHistoryOldestFirstThenLiveMessages() async throws {
        let store = InMemoryMessageStore()
        let room = try await openTestRoom(store, recent: 3)
        for index in 1...5 { room.submit(MessageDraft(sender: self.alice, text: "m\(index)")) }
        let late = RecordingSink(renderer: self.renderer)
        room.join(late, history: 2)
        room.submit(MessageDraft(sender: self.alice, text: "live"))
        await room.waitUntilIdle()
        #expect(try await late.waitForLines(3) == ["4 alice: m4", "5 alice: m5", "6 alice: live"])
    }

    @Test func announcesJoinsAndLeavesOnce() async throws {
        let room = try await openTestRoom(InMemoryMessageStore())
        let watcher = RecordingSink(renderer: self.renderer)
        let bob = RecordingSink(renderer: self.renderer)
        room.join(watcher)
        room.join(bob, announcing: "bob")
        room.leave(bob, announcing: "bob")
        room.leave(bob, announcing: "bob")
        await room.waitUntilIdle()
        #expect(try await watcher.waitForLines(2) == ["bob joined", "bob left"])
        #expect(try await bob.waitForLines(1) == ["bob joined"])
        #expect(await room.memberCount == 1)
    }

    @Test("a batch is rendered once per format and flushed once per member")
    func batchesDelivery() async throws {
        let store = InMemoryMessageStore()
        let room = try await openTestRoom(store)
        let sinks = (0..<20).map { _ in RecordingSink(renderer: self.renderer) }
        for sink in sinks { room.join(sink) }
        await room.waitUntilIdle()
        for index in 1...50 { room.submit(MessageDraft(sender: self.alice, text: "m\(index)")) }
        await room.waitUntilIdle()
        for sink in sinks {
            #expect(try await sink.waitForLines(50).count == 50)
            #expect(sink.flushCount <= 50)
        }
    }
}

@Suite("Tutorial identities")
struct TutorialIdentityTests {
    @Test func derivesAStableVersion5UUIDFromAName() {
        let id = TutorialIdentity.userID(forName: "Luke")
        #expect(id == TutorialIdentity.userID(forName: "Luke"))
        #expect(id != TutorialIdentity.userID(forName: "luke"))
        #expect(id.uuidString.dropFirst(14).first == "5")
    }
}
