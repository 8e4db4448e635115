import ChatCore
import ChatTestSupport
import Foundation
import Testing

@Suite("Room: resumes")
struct RoomResumeTests {
    let alice = Sender(name: "alice", id: UUID())

    @Test("resumes queued together share one read of the store, and each gets exactly what it missed")
    func queuedResumesShareARead() async throws {
        // setup: a room of ten messages, whose store calls give up after 200 ms
        let store = StallingStore()
        let room = try await store.openRoom()
        for number in 1...10 { room.submit(MessageDraft(sender: self.alice, text: "m\(number)")) }
        await room.waitUntilIdle()
        // act: the room is busy with a send the store does not answer while four connections resume behind it,
        // as a dead node's clients come back together; the store answers again before their turn
        store.stall(true)
        let callsBefore = store.calls
        room.submit(MessageDraft(sender: self.alice, text: "lost"))
        try? await eventually("the store is asked", within: .seconds(5)) { store.calls != callsBefore }
        try #require(store.calls > callsBefore)
        let sinks = (0..<4).map { _ in RecordingSink(renderer: LineRenderer()) }
        room.resume(sinks[0], after: 2, maxReplay: 100)
        room.resume(sinks[1], after: 7, maxReplay: 100)
        room.resume(sinks[2], after: 10, maxReplay: 100)
        room.resume(sinks[3], after: 0, maxReplay: 3)
        store.stall(false)
        let callsBeforeResumes = store.calls
        await room.waitUntilIdle()
        // validate: one read for the four; the one missing more than its maxReplay gets the marker alone
        #expect(store.calls - callsBeforeResumes == 1)
        #expect(try await sinks[0].waitForLines(9) == (3...10).map { "\($0) alice: m\($0)" } + ["resumed 10 true"])
        #expect(try await sinks[1].waitForLines(4) == (8...10).map { "\($0) alice: m\($0)" } + ["resumed 10 true"])
        #expect(try await sinks[2].waitForLines(1) == ["resumed 10 true"])
        #expect(try await sinks[3].waitForLines(1) == ["resumed 10 false"])
        // ...and all four are members: the next message reaches each once
        room.submit(MessageDraft(sender: self.alice, text: "m11"))
        await room.waitUntilIdle()
        for (sink, replayed) in zip(sinks, [9, 4, 1, 1]) {
            #expect(try await sink.waitForLines(replayed + 1).last == "11 alice: m11")
        }
    }
}
