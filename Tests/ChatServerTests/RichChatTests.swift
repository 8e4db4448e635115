import ChatProtocol
import ChatServer
import ChatTestSupport
import Foundation
import NIOHTTP1
import Testing

extension TestServer {
    /// Two accounts with a direct room, each with a connection that has resumed everything: Ann's to this server,
    /// Bob's to `bobsNode` (another node on the same database) or, by default, this one too.
    func pair(bobConnectedTo bobsNode: TestServer? = nil) async throws -> (
        ann: AuthSession, bob: AuthSession, dm: RoomSummary, annSocket: WebSocketTestClient,
        bobSocket: WebSocketTestClient
    ) {
        let ann = try await self.register("ann")
        let bob = try await self.register("bob")
        let dm = try await self.api.send(.POST, "/dms", json: UsernameRequest(username: "bob"), token: ann.token)
            .decode(RoomSummary.self)
        let annSocket = try await self.modernClient(ann)
        let bobSocket = try await (bobsNode ?? self).modernClient(bob)
        _ = try await annSocket.next(.resumed, as: ResumedFrame.self)
        _ = try await bobSocket.next(.resumed, as: ResumedFrame.self)
        return (ann, bob, dm, annSocket, bobSocket)
    }
}

extension WebSocketTestClient {
    /// The next `message` frame whose `kind` is `kind`.
    func nextEvent(_ kind: EventKind) async throws -> MessageFrame {
        while true {
            let frame = try await self.next(.message, as: MessageFrame.self)
            if frame.eventKind == kind { return frame }
        }
    }
}

@Suite("Rich chat over real sockets: edits, deletes, reactions, replies (PROTOCOL.md §9.1–§9.2)")
struct RichChatTests {
    @Test("each change is an event with its own seq, delivered live to both users and replayed on resume in order")
    func eventsFlowAndReplay() async throws {
        try await withTestServer { server in
            let (ann, bob, dm, annSocket, bobSocket) = try await server.pair()
            _ = try await annSocket.acked(
                .send(SendRequest(room: dm.id, clientMsgID: "m1", text: "see you at 8")))
            #expect(try await bobSocket.nextEvent(.message).seq == 1)
            _ = try await bobSocket.acked(
                .send(SendRequest(room: dm.id, clientMsgID: "m2", text: "where?", replyTo: 1)))
            let quoted = try await annSocket.nextEvent(.message)
            #expect(quoted.seq == 2)
            #expect(
                quoted.replyTo
                    == QuotePayload(seq: 1, sender: SenderPayload(id: ann.user.id, name: "ann"), text: "see you at 8"))
            _ = try await annSocket.acked(
                .edit(EditRequest(room: dm.id, clientMsgID: "e1", target: 1, text: "see you at 9")))
            let edit = try await bobSocket.nextEvent(.edit)
            #expect(edit.seq == 3 && edit.target == 1 && edit.text == "see you at 9" && edit.sender.id == ann.user.id)
            let reaction = try await bobSocket.acked(
                .react(ReactRequest(room: dm.id, clientMsgID: "r1", target: 1, emoji: "👍")))
            #expect(reaction.seq == 4)
            let react = try await annSocket.nextEvent(.reaction)
            #expect(react.target == 1 && react.emoji == "👍" && react.added == true && react.sender.id == bob.user.id)

            // A second device resuming from 0 gets every event in order, the message in its current state.
            let again = try await server.modernClient(bob, resume: [dm.id: 0])
            var replayed: [MessageFrame] = []
            for _ in 0..<4 { replayed.append(try await again.next(.message, as: MessageFrame.self)) }
            #expect(replayed.map(\.seq) == [1, 2, 3, 4])
            #expect(replayed.map(\.eventKind) == [.message, .message, .edit, .reaction])
            #expect(replayed[0].text == "see you at 9" && replayed[0].editedAt != nil)
            #expect(replayed[0].reactions == [ReactionPayload(emoji: "👍", users: [bob.user.id])])

            // An edit or reaction is not unread; the summary's last message is the last message.
            let rooms = try await server.api.send(.GET, "/rooms", token: ann.token).decode([RoomSummary].self)
            let summary = try #require(rooms.first { $0.id == dm.id })
            #expect(summary.unreadCount == 1 && summary.lastMessage?.seq == 2 && summary.latestSeq == 4)
        }
    }

    @Test(
        "deleting removes the text from history, from edits, from quotes and from search; the tombstone keeps its seq")
    func deleteLeavesATombstone() async throws {
        try await withTestServer { server in
            let (ann, bob, dm, annSocket, bobSocket) = try await server.pair()
            _ = try await annSocket.acked(
                .send(SendRequest(room: dm.id, clientMsgID: "m1", text: "the password is swordfish")))
            _ = try await annSocket.acked(
                .edit(EditRequest(room: dm.id, clientMsgID: "e1", target: 1, text: "the password is swordfish2"))
            )
            _ = try await bobSocket.acked(
                .send(SendRequest(room: dm.id, clientMsgID: "m2", text: "noted", replyTo: 1)))
            #expect(
                try await server.api.send(.GET, "/search?q=swordfish2", token: bob.token).decode(SearchResults.self)
                    .results.count == 1)
            let deletion = try await annSocket.acked(
                .delete(DeleteRequest(room: dm.id, clientMsgID: "d1", target: 1)))
            #expect(deletion.seq == 4)
            let event = try await bobSocket.nextEvent(.delete)
            #expect(event.target == 1 && event.text.isEmpty)

            let history = try await server.api.send(.GET, "/rooms/\(dm.id)/messages", token: bob.token)
            #expect(!String(decoding: history.body, as: UTF8.self).contains("swordfish"))
            let page = try history.decode(HistoryPage.self)
            #expect(page.messages.map(\.seq) == [1, 2, 3, 4])
            #expect(page.messages[0].deleted == true && page.messages[0].text.isEmpty)
            #expect(page.messages[2].replyTo?.text == "")
            #expect(
                try await server.api.send(.GET, "/search?q=swordfish2", token: bob.token).decode(SearchResults.self)
                    .results.isEmpty)
            #expect(
                try await annSocket.errorCode(
                    for: .edit(EditRequest(room: dm.id, clientMsgID: "e2", target: 1, text: "undo")))
                    == .badTarget)
            _ = ann
        }
    }

    @Test(
        "bad input: someone else's message, a non-emoji, a missing target, a room I am not in — clear errors, nothing stored"
    )
    func badInput() async throws {
        try await withTestServer { server in
            let (_, _, dm, annSocket, bobSocket) = try await server.pair()
            let carol = try await server.register("carol")
            let carolSocket = try await server.modernClient(carol)
            _ = try await annSocket.acked(.send(SendRequest(room: dm.id, clientMsgID: "m1", text: "mine")))
            #expect(
                try await bobSocket.errorCode(
                    for: .edit(EditRequest(room: dm.id, clientMsgID: "x1", target: 1, text: "yours now")))
                    == .notYours)
            #expect(
                try await bobSocket.errorCode(
                    for: .delete(DeleteRequest(room: dm.id, clientMsgID: "x2", target: 1))) == .notYours)
            for emoji in ["", "ok", "👍👍", "1", "<script>"] {
                #expect(
                    try await bobSocket.errorCode(
                        for: .react(ReactRequest(room: dm.id, clientMsgID: "x3", target: 1, emoji: emoji)))
                        == .badEmoji)
            }
            #expect(
                try await bobSocket.errorCode(
                    for: .react(ReactRequest(room: dm.id, clientMsgID: "x4", target: 42, emoji: "👍")))
                    == .badTarget)
            #expect(
                try await bobSocket.errorCode(
                    for: .send(SendRequest(room: dm.id, clientMsgID: "x5", text: "re", replyTo: 42)))
                    == .badTarget)
            #expect(
                try await annSocket.errorCode(
                    for: .edit(EditRequest(room: dm.id, clientMsgID: "x6", target: 1, text: "  ")))
                    == .emptyMessage)
            #expect(
                try await annSocket.errorCode(
                    for: ClientFrame(type: "edit", room: dm.id, clientMsgID: "x7", text: "no target")) == .badFrame)
            #expect(
                try await carolSocket.errorCode(
                    for: .react(ReactRequest(room: dm.id, clientMsgID: "x8", target: 1, emoji: "👍")))
                    == .forbidden)
            #expect(
                try await carolSocket.errorCode(
                    for: .delete(DeleteRequest(room: dm.id, clientMsgID: "x9", target: 1))) == .forbidden)
            #expect(try await carolSocket.errorCode(for: .typing(TypingRequest(room: dm.id))) == .forbidden)
            #expect(try await carolSocket.errorCode(for: .read(ReadRequest(room: dm.id, seq: 1))) == .forbidden)
            let page = try await server.api.send(.GET, "/rooms/\(dm.id)/messages", token: server.register("dave").token)
            #expect(page.status == 403)
            // Nothing of the refused frames was stored: the room still ends at seq 1, unchanged.
            let again = try await server.modernClient(
                try await server.api.send(
                    .POST, "/login", json: LoginRequest(username: "bob", password: "correct horse")
                ).decode(AuthSession.self), resume: nil)
            try await again.send(.history(HistoryRequest(room: dm.id, ref: "h")))
            let history = try await again.next(.history, as: HistoryFrame.self)
            #expect(
                history.messages.map(\.seq) == [1] && history.messages[0].text == "mine"
                    && history.messages[0].reactions == nil)
        }
    }
}
