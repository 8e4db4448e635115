import ChatCore
import ChatProtocol
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOPosix
import Testing

/// What a submit ended in, as a short string.
private func outcome(_ room: Room, _ draft: MessageDraft) async -> String {
    await withCheckedContinuation { continuation in
        room.submit(draft) { result in
            switch result {
            case .success(let event):
                continuation.resume(
                    returning: "ok \(event.seq) \(event.kind.rawValue)\(event.added.map { " added=\($0)" } ?? "")")
            case .failure(let error as RoomRejection): continuation.resume(returning: "\(error)")
            case .failure(let error): continuation.resume(returning: "failed \(error)")
            }
        }
    }
}

@Suite("Room: edits, deletes, reactions and replies are events checked against their target (PROTOCOL.md §9.1–§9.2)")
struct RoomEventTests {
    let alice = Sender(name: "alice", id: UUID())
    let bob = Sender(name: "bob", id: UUID())

    @Test("only the sender edits or deletes; a deleted message takes no edit, reaction or reply")
    func ownershipAndTombstones() async throws {
        let store = InMemoryMessageStore()
        let room = try await openTestRoom(store)
        #expect(await outcome(room, MessageDraft(sender: self.alice, text: "hello")) == "ok 1 message")
        #expect(
            await outcome(room, MessageDraft(sender: self.bob, body: .edit(target: 1, text: "hacked"))) == "notYours")
        #expect(await outcome(room, MessageDraft(sender: self.bob, body: .delete(target: 1))) == "notYours")
        #expect(
            await outcome(room, MessageDraft(sender: self.alice, body: .edit(target: 1, text: "hello!"))) == "ok 2 edit"
        )
        #expect(
            await outcome(room, MessageDraft(sender: self.alice, body: .edit(target: 2, text: "an edit is no message")))
                == "badTarget")
        #expect(
            await outcome(room, MessageDraft(sender: self.alice, body: .edit(target: 99, text: "nothing there")))
                == "badTarget")
        #expect(await outcome(room, MessageDraft(sender: self.alice, body: .delete(target: 1))) == "ok 3 delete")
        #expect(
            await outcome(room, MessageDraft(sender: self.alice, body: .edit(target: 1, text: "back?"))) == "badTarget")
        #expect(
            await outcome(room, MessageDraft(sender: self.bob, body: .reaction(target: 1, emoji: "👍"))) == "badTarget")
        #expect(
            await outcome(room, MessageDraft(sender: self.bob, body: .message(text: "re", replyTo: 1))) == "badTarget")
        let tombstone = try #require(await store.message(in: "r", seq: 1))
        #expect(tombstone.deleted && tombstone.text.isEmpty)
        #expect(await store.lastSequence(in: "r") == 3)
    }

    @Test(
        "a retried delete, edit or reply whose target was deleted since gets its first answer, even from a room that does not remember it"
    )
    func retryAfterTheTargetChanged() async throws {
        let store = InMemoryMessageStore()
        let room = try await openTestRoom(store)
        #expect(await outcome(room, MessageDraft(sender: self.alice, text: "hello")) == "ok 1 message")
        let edit = MessageDraft(sender: self.alice, body: .edit(target: 1, text: "hello!"), clientMsgID: "e")
        let reply = MessageDraft(sender: self.bob, body: .message(text: "hi", replyTo: 1), clientMsgID: "r")
        let delete = MessageDraft(sender: self.alice, body: .delete(target: 1), clientMsgID: "d")
        #expect(await outcome(room, edit) == "ok 2 edit")
        #expect(await outcome(room, reply) == "ok 3 message")
        #expect(await outcome(room, delete) == "ok 4 delete")
        // The acks were lost; the room reopens (after a restart, or on another node) and remembers nothing.
        let reopened = try await openTestRoom(store)
        #expect(await outcome(reopened, delete) == "ok 4 delete")
        #expect(await outcome(reopened, edit) == "ok 2 edit")
        #expect(await outcome(reopened, reply) == "ok 3 message")
        // A new edit of the deleted message is still refused, and nothing was stored twice.
        let late = MessageDraft(sender: self.alice, body: .edit(target: 1, text: "again"), clientMsgID: "e2")
        #expect(await outcome(reopened, late) == "badTarget")
        #expect(await store.lastSequence(in: "r") == 4)
    }

    @Test("a reaction toggles per user and emoji; a reply quotes the start of its target")
    func reactionsAndReplies() async throws {
        let store = InMemoryMessageStore()
        let room = try await openTestRoom(store)
        let long = String(repeating: "x", count: 150)
        _ = await outcome(room, MessageDraft(sender: self.alice, text: long))
        #expect(
            await outcome(room, MessageDraft(sender: self.bob, body: .reaction(target: 1, emoji: "👍")))
                == "ok 2 reaction added=true")
        #expect(
            await outcome(room, MessageDraft(sender: self.alice, body: .reaction(target: 1, emoji: "👍")))
                == "ok 3 reaction added=true")
        #expect(
            await outcome(room, MessageDraft(sender: self.bob, body: .reaction(target: 1, emoji: "👍")))
                == "ok 4 reaction added=false")
        #expect(await store.message(in: "r", seq: 1)?.reactions == [Reaction(emoji: "👍", users: [self.alice.id])])
        #expect(
            await outcome(room, MessageDraft(sender: self.bob, body: .message(text: "agreed", replyTo: 1)))
                == "ok 5 message")
        let reply = try #require(await store.message(in: "r", seq: 5))
        #expect(
            reply.replyTo == Quote(seq: 1, sender: self.alice, text: String(repeating: "x", count: Quote.maxCharacters))
        )
        _ = await outcome(room, MessageDraft(sender: self.alice, body: .delete(target: 1)))
        #expect(await store.message(in: "r", seq: 5)?.replyTo?.text == "")
        // the deleted message no longer counts as unread for bob; his own reply never did
        #expect(await store.unreadCount(in: "r", after: 0, upTo: .max, for: self.bob.id) == 0)
        #expect(await store.lastMessage(in: "r", upTo: .max)?.seq == 5)
    }

    @Test("tutorial clients' recent history shows edited text and leaves deleted messages out")
    func recentHistoryFollowsEdits() async throws {
        let store = InMemoryMessageStore()
        let room = try await openTestRoom(store)
        _ = await outcome(room, MessageDraft(sender: self.alice, text: "one"))
        _ = await outcome(room, MessageDraft(sender: self.alice, text: "two"))
        _ = await outcome(room, MessageDraft(sender: self.alice, body: .edit(target: 1, text: "one, edited")))
        _ = await outcome(room, MessageDraft(sender: self.alice, body: .delete(target: 2)))
        _ = await outcome(room, MessageDraft(sender: self.bob, body: .reaction(target: 1, emoji: "🎉")))
        let sink = RecordingSink(renderer: LineRenderer())
        room.join(sink, history: 10)
        #expect(try await sink.waitForLines(1) == ["1 alice: one, edited"])
    }

    @Test("typing reaches the other members only, at most once per interval")
    func typingIsThrottled() async throws {
        let room = try await openTestRoom(InMemoryMessageStore())
        let aliceSink = RecordingSink(renderer: LineRenderer(), account: self.alice.id)
        let bobSink = RecordingSink(renderer: LineRenderer(), account: self.bob.id)
        room.join(aliceSink)
        room.join(bobSink)
        room.typing(self.alice)
        room.typing(self.alice)
        room.typing(self.alice)
        _ = await outcome(room, MessageDraft(sender: self.bob, text: "hi"))
        #expect(try await bobSink.waitForLines(2) == ["typing alice", "1 bob: hi"])
        #expect(try await aliceSink.waitForLines(1) == ["1 bob: hi"])
    }

    @Test(
        "single emoji only",
        arguments: [
            ("👍", true), ("❤️", true), ("👍🏽", true), ("🇫🇷", true), ("1️⃣", true), ("👨‍👩‍👧", true),
            ("", false), ("a", false), ("1", false), ("👍👍", false), ("ok👍", false), ("❤", false), (" 👍", false),
        ])
    func emojiRule(text: String, valid: Bool) {
        #expect(ReactionRules.isSingleEmoji(text) == valid)
    }
}
