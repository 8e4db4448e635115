import ChatClient
import ChatProtocol
import ChatServer
import ChatTestSupport
import Foundation
import Testing

@Suite("ChatClient and rich chat (PROTOCOL.md §9)")
struct RichChatTests {
    @Test("edit, react, reply and delete arrive as events; a timeline applies them once each")
    func eventsOfTheSequence() async throws {
        try await withTestServer { server in
            // setup
            let ann = try await server.client(registering: "ann")
            let bob = try await server.client(registering: "bob")
            let annEvents = EventRecorder(await ann.connect())
            let bobEvents = EventRecorder(await bob.connect())
            try await annEvents.waitUntilConnected()
            try await bobEvents.waitUntilConnected()
            // act
            let original = try await ann.send("see you at 8", to: "lobby")
            try await ann.edit(original.seq, in: "lobby", text: "see you at 9")
            try await bob.react("👍", to: original.seq, in: "lobby")
            let reply = try await bob.send("ok", to: "lobby", replyTo: original.seq)
            try await ann.delete(original.seq, in: "lobby")
            let last = try await ann.send("done", to: "lobby")
            try await annEvents.ownReceipt(for: last, from: ann)
            // validate: bob's timeline from the live events, applied twice, equals the one from history
            var events: [MessagePayload] = []
            try await bobEvents.next("the last message") { event in
                if case .message(let message, _) = event { events.append(message) }
                if case .message(let message, _) = event { return message.text == "done" }
                return false
            }
            #expect(events.map(\.eventKind) == [.message, .edit, .reaction, .message, .delete, .message])
            var live = Timeline()
            for event in events + events { live.apply(event) }
            var loaded = Timeline()
            loaded.apply(page: try await bob.history(room: "lobby").messages)
            #expect(live.messages.map(\.seq) == [original.seq, reply.seq, last.seq])
            #expect(live.message(seq: original.seq)?.deleted == true && live.message(seq: original.seq)?.text == "")
            #expect(live.message(seq: reply.seq)?.replyTo?.seq == original.seq)
            #expect(loaded.messages.map(\.seq) == live.messages.map(\.seq))
            #expect(loaded.message(seq: original.seq)?.deleted == true)
            await ann.stop()
            await bob.stop()
        }
    }

    @Test(
        "a page applies its edits to messages loaded before it (a newer page), never to messages it brings (an older one)"
    )
    func pagesAndEdits() {
        let ann = SenderPayload(id: UUID(), name: "ann")
        let edit = MessagePayload(
            room: "r", seq: 2, id: UUID(), sender: ann, kind: .known(.edit), text: "v2", date: 2, target: 1)
        // Newer page: message 1 was loaded as it was at seq 1; the page's edit is newer than that state.
        var newer = Timeline()
        newer.apply(page: [MessagePayload(room: "r", seq: 1, id: UUID(), sender: ann, text: "v1", date: 1)])
        newer.apply(page: [edit, MessagePayload(room: "r", seq: 3, id: UUID(), sender: ann, text: "next", date: 3)])
        #expect(newer.message(seq: 1)?.text == "v2")
        // Older page: message 1 arrives in its current state (edited again at seq 9); its old edit must not undo that.
        var older = Timeline()
        older.apply(page: [
            MessagePayload(
                room: "r", seq: 9, id: UUID(), sender: ann, kind: .known(.edit), text: "v3", date: 9, target: 1)
        ])
        older.apply(page: [
            MessagePayload(room: "r", seq: 1, id: UUID(), sender: ann, text: "v3", date: 1, editedAt: 9), edit,
        ])
        #expect(older.message(seq: 1)?.text == "v3")
    }

    @Test("an edit and a reaction before the delete show in the timeline")
    func timelineEditAndReaction() throws {
        let ann = SenderPayload(id: UUID(), name: "ann")
        let bob = SenderPayload(id: UUID(), name: "bob")
        var timeline = Timeline()
        timeline.apply(MessagePayload(room: "r", seq: 1, id: UUID(), sender: ann, text: "hi", date: 1))
        timeline.apply(
            MessagePayload(
                room: "r", seq: 2, id: UUID(), sender: ann, kind: .known(.edit), text: "hello", date: 2, target: 1))
        timeline.apply(
            MessagePayload(
                room: "r", seq: 3, id: UUID(), sender: bob, kind: .known(.reaction), text: "", date: 3, target: 1,
                emoji: "👍",
                added: true))
        timeline.apply(
            MessagePayload(
                room: "r", seq: 3, id: UUID(), sender: bob, kind: .known(.reaction), text: "", date: 3, target: 1,
                emoji: "👍",
                added: true))
        timeline.apply(
            MessagePayload(room: "r", seq: 4, id: UUID(), sender: ann, kind: .unknown("future-kind"), text: "", date: 4)
        )
        #expect(timeline.messages.count == 1)
        #expect(timeline.message(seq: 1)?.text == "hello" && timeline.message(seq: 1)?.editedAt == 2)
        #expect(timeline.message(seq: 1)?.reactions == [ReactionPayload(emoji: "👍", users: [bob.id])])
        timeline.apply(
            MessagePayload(
                room: "r", seq: 5, id: UUID(), sender: bob, kind: .known(.reaction), text: "", date: 5, target: 1,
                emoji: "👍",
                added: false))
        #expect(timeline.message(seq: 1)?.reactions == nil)
    }

    @Test("attachments upload and download; search finds words; typing reaches the other member")
    func attachmentsSearchTyping() async throws {
        try await withTestServer { server in
            let ann = try await server.client(registering: "ann")
            let bob = try await server.client(registering: "bob")
            let annEvents = EventRecorder(await ann.connect())
            let bobEvents = EventRecorder(await bob.connect())
            try await annEvents.waitUntilConnected()
            try await bobEvents.waitUntilConnected()
            // attachments
            let bytes = Data("just some notes\n".utf8)
            let attachment = try await ann.upload(bytes, name: "notes.txt", contentType: "text/plain")
            #expect(attachment.name == "notes.txt" && attachment.size == Int64(bytes.count))
            let sent = try await ann.send("", to: "lobby", attachments: [attachment.id])
            #expect(try await bob.download(attachment.id) == bytes)
            // search
            let hello = try await ann.send("hello everyone", to: "lobby")
            let hits = try await bob.search("hel")
            #expect(hits.map(\.message.seq) == [hello.seq])
            #expect(hits.first?.snippet.contains { $0.match == true && $0.text.lowercased().hasPrefix("hel") } == true)
            // typing
            await ann.typing(in: "lobby")
            let typing = try await bobEvents.next("ann typing") {
                if case .typing("lobby", let user) = $0 { user.name == "ann" } else { false }
            }
            #expect({ if case .typing = typing { true } else { false } }())
            try await annEvents.ownReceipt(for: hello, from: ann)
            _ = sent
            await ann.stop()
            await bob.stop()
        }
    }

    @Test(
        "joining a room with history while connected: the summary counts the past, only new messages arrive as events")
    func joinedRoomWithHistory() async throws {
        try await withTestServer { server in
            // setup: bob's channel already holds three messages
            let ann = try await server.client(registering: "ann")
            let bob = try await server.client(registering: "bob")
            let bobEvents = EventRecorder(await bob.connect())
            try await bobEvents.waitUntilConnected()
            let token = try #require(await bob.session?.token)
            let channel = try await bob.api.createRoom(CreateRoomRequest(kind: "channel", name: "Books"), token: token)
            try await bobEvents.next("joined Books") {
                if case .joined(let room) = $0 { room.id == channel.id } else { false }
            }
            var last: Ack?
            for index in 1...3 { last = try await bob.send("old \(index)", to: channel.id) }
            let annEvents = EventRecorder(await ann.connect())
            try await annEvents.waitUntilConnected()
            // act: ann joins, then bob writes once more
            try await ann.join(room: channel.id)
            let joined = try await annEvents.next("joined Books") {
                if case .joined(let room) = $0 { room.id == channel.id } else { false }
            }
            guard case .joined(let summary) = joined else { return }
            // Her own `joined` event follows the three messages; it is not unread.
            #expect(summary.latestSeq == (last?.seq ?? 0) + 1 && summary.unreadCount == 3)
            let fresh = try await bob.send("new", to: channel.id)
            // validate: the first message event from the room is the new one, not a replay of the old ones
            let messages = try await annEvents.messages(in: channel.id, through: "new")
            #expect(messages.map(\.seq) == [fresh.seq])
            try await bobEvents.ownReceipt(for: fresh, from: bob)
            await ann.stop()
            await bob.stop()
        }
    }
}
