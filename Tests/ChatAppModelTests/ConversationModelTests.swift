import ChatAppModel
import ChatClient
import ChatProtocol
import ChatTestSupport
import Foundation
import Testing

@MainActor
@Suite("ConversationModel: autoscroll, pending and failed sends, paging, typing")
struct ConversationModelTests {
    let ann = SenderPayload(id: UUID(), name: "ann")
    let bob = SenderPayload(id: UUID(), name: "bob")

    @Test("at the bottom, a new message scrolls; scrolled up, it shows the pill instead; reaching the bottom clears it")
    func respectfulAutoscroll() async throws {
        let model = ConversationModel(room: "lobby", me: self.ann.id, backend: FakeBackend(room: "lobby", me: self.ann))
        model.apply(.message(message(1, from: self.bob), clientMsgID: nil))
        #expect(model.scrollRequest?.id == "seq-1" && model.unseenCount == 0)
        // the reader scrolls up to read older messages
        model.isAtBottom = false
        let before = model.scrollRequest?.serial
        model.apply(.message(message(2, from: self.bob), clientMsgID: nil))
        model.apply(.message(message(3, from: self.bob), clientMsgID: nil))
        #expect(model.scrollRequest?.serial == before)
        #expect(model.unseenCount == 2)
        // my own message always scrolls
        model.apply(.message(message(4, from: self.ann), clientMsgID: nil))
        #expect(model.scrollRequest?.id == "seq-4")
        model.jumpToLatest()
        #expect(model.unseenCount == 0 && model.isAtBottom)
        // a replayed duplicate changes nothing
        model.apply(.message(message(3, from: self.bob), clientMsgID: nil))
        #expect(model.items.map(\.id) == ["seq-1", "seq-2", "seq-3", "seq-4"])
    }

    @Test("a send shows as pending, then the server's message replaces it")
    func pendingThenSent() async throws {
        let backend = FakeBackend(room: "lobby", me: self.ann)
        let model = ConversationModel(room: "lobby", me: self.ann.id, backend: backend)
        model.send("hello")
        #expect(model.items.map(\.delivery) == [.pending])
        #expect(model.items.first?.isMine == true)
        try await eventually("the send reached the backend") { await backend.sent.count == 1 }
        let clientMsgID = try #require(await backend.sentIDs().first)
        let stored = try #require(await backend.storedMessages().first)
        model.apply(.message(stored, clientMsgID: clientMsgID))
        try await eventually("one sent bubble") { model.items.map(\.delivery) == [.sent] }
        #expect(model.items.map(\.id) == ["seq-1"])
    }

    @Test("a refused send is marked failed; retry reuses its clientMsgID")
    func failedThenRetry() async throws {
        let backend = FakeBackend(room: "lobby", me: self.ann)
        await backend.failSends(1)
        let model = ConversationModel(room: "lobby", me: self.ann.id, backend: backend)
        model.send("hello")
        try await eventually("failed") { if case .failed = model.items.first?.delivery { true } else { false } }
        let failed = try #require(model.items.first)
        model.retry(failed)
        #expect(model.items.first?.delivery == .pending)
        try await eventually("sent") { model.items.first?.delivery == .sent }
        let ids = await backend.sentIDs()
        #expect(ids.count == 2 && ids[0] == ids[1])
    }

    @Test("paging loads older pages until hasMore is false, keeping order and never duplicating")
    func paging() async throws {
        let stored = (1...120).map { message(Int64($0), from: self.bob) }
        let model = ConversationModel(
            room: "lobby", me: self.ann.id, backend: FakeBackend(room: "lobby", me: self.ann, stored: stored))
        await model.loadLatest()
        #expect(model.items.count == 50 && model.items.first?.id == "seq-71" && model.hasMoreHistory)
        await model.loadOlder()
        await model.loadOlder()
        #expect(model.items.map(\.id) == (1...120).map { "seq-\($0)" })
        #expect(!model.hasMoreHistory)
        await model.loadOlder()
        #expect(model.items.count == 120)
    }

    @Test("an old edit met in an older page never undoes the newer edit the message was loaded with")
    func olderPageKeepsNewestEdit() async throws {
        // As the server pages it: message 1 in its current state (its second edit, seq 61, applied), its first
        // edit at seq 2, other messages, and the second edit at seq 61.
        var first = message(1, from: self.bob, text: "final words")
        first.editedAt = 61_000
        let firstEdit = MessagePayload(
            room: "lobby", seq: 2, id: UUID(), sender: self.bob, kind: .known(.edit), text: "second thoughts",
            date: 2000,
            target: 1)
        let secondEdit = MessagePayload(
            room: "lobby", seq: 61, id: UUID(), sender: self.bob, kind: .known(.edit), text: "final words",
            date: 61_000,
            target: 1)
        let stored = [first, firstEdit] + (3...60).map { message(Int64($0), from: self.bob) } + [secondEdit]
        let model = ConversationModel(
            room: "lobby", me: self.ann.id, backend: FakeBackend(room: "lobby", me: self.ann, stored: stored))
        await model.loadLatest()
        #expect(model.items.first?.id == "seq-12")
        await model.loadOlder()
        let shown = try #require(model.items.first)
        #expect(shown.id == "seq-1")
        #expect(shown.text == "final words")
        #expect(shown.message?.editedAt == 61_000)
        // A live edit after the page is newer, and applies.
        model.apply(
            .message(
                MessagePayload(
                    room: "lobby", seq: 62, id: UUID(), sender: self.bob, kind: .known(.edit), text: "really final",
                    date: 62_000, target: 1), clientMsgID: nil))
        #expect(model.items.first?.text == "really final")
    }

    @Test("typing shows for 5 seconds after the last signal, and ends when the typist's message arrives")
    func typing() {
        let model = ConversationModel(room: "lobby", me: self.ann.id, backend: FakeBackend(room: "lobby", me: self.ann))
        let start = ContinuousClock.now
        model.apply(.typing(room: "lobby", user: self.bob))
        model.apply(.typing(room: "elsewhere", user: SenderPayload(id: UUID(), name: "eve")))
        #expect(model.typingNames(at: start) == ["bob"])
        #expect(model.typingNames(at: start + .seconds(6)) == [])
        model.apply(.message(message(1, from: self.bob), clientMsgID: nil))
        #expect(model.typingNames(at: start) == [])
    }
}
