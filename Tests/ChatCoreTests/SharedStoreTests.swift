import ChatCore
import ChatProtocol
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOPosix
import Testing

/// Two `Room`s of one id on one store stand for two nodes on one database: the store numbers each batch, and each
/// room must deliver the room's one order, gap-free, whoever committed what.
@Suite("Room: one store, several writers (nodes)")
struct SharedStoreTests {
    let renderer = LineRenderer()
    let alice = Sender(name: "alice", id: UUID())
    let bob = Sender(name: "bob", id: UUID())

    @Test("concurrent senders on two nodes: one gap-free order, the same on both")
    func oneOrderAcrossNodes() async throws {
        // setup
        let store = InMemoryMessageStore()
        let nodeA = try await openTestRoom(store)
        let nodeB = try await openTestRoom(store)
        let onA = RecordingSink(renderer: self.renderer)
        let onB = RecordingSink(renderer: self.renderer)
        nodeA.join(onA)
        nodeB.join(onB)
        // act: each node commits its own sender's messages; each learns of the other's through catch-up hints
        for index in 1...100 {
            nodeA.submit(MessageDraft(sender: self.alice, text: "a\(index)"))
            nodeB.submit(MessageDraft(sender: self.bob, text: "b\(index)"))
            if index.isMultiple(of: 10) {
                let last = await store.lastSequence(in: "r")
                nodeA.catchUp(to: last)
                nodeB.catchUp(to: last)
            }
        }
        await nodeA.waitUntilIdle()
        await nodeB.waitUntilIdle()
        let last = await store.lastSequence(in: "r")
        nodeA.catchUp(to: last)
        nodeB.catchUp(to: last)
        await nodeA.waitUntilIdle()
        await nodeB.waitUntilIdle()
        // validate
        #expect(last == 200)
        let stored = await store.latest(in: "r", limit: 500).map { "\($0.seq) \($0.sender.name): \($0.text)" }
        #expect(stored.count == 200)
        #expect(try await onA.waitForLines(200) == stored)
        #expect(try await onB.waitForLines(200) == stored)
        #expect(await nodeA.latestSeq == 200)
        #expect(await nodeB.latestSeq == 200)
    }

    @Test("a node's own commit after another node's is delivered after the events it had not seen")
    func commitFillsTheGapFirst() async throws {
        let store = InMemoryMessageStore()
        let nodeA = try await openTestRoom(store)
        let nodeB = try await openTestRoom(store)
        let onB = RecordingSink(renderer: self.renderer)
        nodeB.join(onB)
        await nodeB.waitUntilIdle()
        for index in 1...3 { nodeA.submit(MessageDraft(sender: self.alice, text: "a\(index)")) }
        await nodeA.waitUntilIdle()
        // No hint reaches B: its own commit must still come after 1…3, which it reads first.
        let acked = NIOLockedValueBox<StoredMessage?>(nil)
        nodeB.submit(MessageDraft(sender: self.bob, text: "b1")) { result in
            acked.withLockedValue { $0 = try? result.get() }
        }
        await nodeB.waitUntilIdle()
        #expect(acked.withLockedValue { $0?.seq } == 4)
        #expect(try await onB.waitForLines(4) == ["1 alice: a1", "2 alice: a2", "3 alice: a3", "4 bob: b1"])
        // A stale or repeated hint reads nothing and delivers nothing twice.
        nodeB.catchUp(to: 2)
        nodeB.catchUp(to: 4)
        await nodeB.waitUntilIdle()
        #expect(onB.lines.count == 4)
    }

    @Test("a retry through the other node gets the original back and is delivered once")
    func retryThroughAnotherNode() async throws {
        let store = InMemoryMessageStore()
        let nodeA = try await openTestRoom(store)
        let nodeB = try await openTestRoom(store)
        let onB = RecordingSink(renderer: self.renderer)
        nodeB.join(onB)
        let first = NIOLockedValueBox<StoredMessage?>(nil)
        let retry = NIOLockedValueBox<StoredMessage?>(nil)
        nodeA.submit(MessageDraft(sender: self.alice, body: .message(text: "once"), clientMsgID: "c-1")) { result in
            first.withLockedValue { $0 = try? result.get() }
        }
        await nodeA.waitUntilIdle()
        // B opened before A's commit and has no hint: only the store knows the original.
        nodeB.submit(MessageDraft(sender: self.alice, body: .message(text: "once"), clientMsgID: "c-1")) { result in
            retry.withLockedValue { $0 = try? result.get() }
        }
        nodeB.submit(MessageDraft(sender: self.bob, text: "after"))
        await nodeB.waitUntilIdle()
        let original = try #require(first.withLockedValue { $0 })
        #expect(retry.withLockedValue { $0?.id } == original.id)
        #expect(retry.withLockedValue { $0?.seq } == 1)
        // Read back from the store, the message still brings its sender's receipt (it carries a clientMsgID).
        #expect(try await onB.waitForLines(3) == ["1 alice: once", "read 1", "2 bob: after"])
        #expect(await store.lastSequence(in: "r") == 2)
    }

    @Test("a hint the store cannot serve yet is retried by the next one; nothing is skipped")
    func failedCatchUpHeals() async throws {
        let store = InMemoryMessageStore()
        let nodeA = try await openTestRoom(store)
        let nodeB = try await openTestRoom(store)
        let onB = RecordingSink(renderer: self.renderer)
        nodeB.join(onB)
        for index in 1...2 { nodeA.submit(MessageDraft(sender: self.alice, text: "a\(index)")) }
        await nodeA.waitUntilIdle()
        store.failNextReads(1)
        // B's own commit is numbered 3 but cannot be delivered before 1 and 2, which it cannot read yet.
        nodeB.submit(MessageDraft(sender: self.bob, text: "b1"))
        await nodeB.waitUntilIdle()
        #expect(onB.lines.isEmpty)
        nodeB.catchUp(to: 3)
        await nodeB.waitUntilIdle()
        #expect(try await onB.waitForLines(3) == ["1 alice: a1", "2 alice: a2", "3 bob: b1"])
    }
}
