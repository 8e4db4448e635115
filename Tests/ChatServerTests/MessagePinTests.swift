import ChatProtocol
import ChatServer
import ChatTestSupport
import Foundation
import NIOHTTP1
import Testing

/// Pinned messages (PROTOCOL.md §7.8), on SQLite and PostgreSQL: a `pin` event of the room that every member sees
/// live, in history and on resume, and the room's list of what is pinned.
@Suite("Pinned messages: a pin event for everyone in the room, and the room's list")
struct MessagePinTests {
    static func pins(_ room: String, _ session: AuthSession, on server: TestServer) async throws -> [MessagePayload] {
        try await server.api.send(.pinnedMessages, room, token: session.token).decode(PinnedMessagesPayload.self)
            .messages
    }

    @Test("a member pins a message of a group: every member sees it live, in the list, in history and on resume")
    func pinInGroup() async throws {
        try await withTestServer { server in
            let ann = try await server.register("ann")
            let bob = try await server.register("bob")
            let group = try await server.api.send(
                .POST, "/rooms", json: CreateRoomRequest(kind: "group", name: "Trip", members: ["bob"]),
                token: ann.token
            ).decode(RoomSummary.self)
            let annSocket = try await server.modernClient(ann)
            _ = try await annSocket.next(.resumed, as: ResumedFrame.self)
            let plan = try await annSocket.acked(.send(SendRequest(room: group.id, clientMsgID: "m1", text: "plan")))
            let time = try await annSocket.acked(.send(SendRequest(room: group.id, clientMsgID: "m2", text: "at 8")))

            #expect(try await server.api.send(.pinMessage, group.id, "\(plan.seq)", token: bob.token).status == 204)
            let live = try await annSocket.nextEvent(.pin)
            #expect(live.target == plan.seq && live.added == true && live.sender.name == "bob" && live.seq == 3)
            #expect(try await server.api.send(.pinMessage, group.id, "\(time.seq)", token: ann.token).status == 204)
            _ = try await annSocket.nextEvent(.pin)
            #expect(
                try await server.api.send(.pinMessage, group.id, "\(plan.seq)", token: ann.token).status == 204,
                "pinning a pinned message again changes nothing")

            var pinned = try await Self.pins(group.id, bob, on: server)
            #expect(pinned.map(\.seq) == [time.seq, plan.seq], "the most recently pinned first")
            #expect(pinned.allSatisfy { $0.pinned == true && $0.eventKind == .message })
            let page = try await server.api.send(.history, group.id, token: ann.token).decode(HistoryPage.self)
            #expect(page.messages.map(\.eventKind) == [.message, .message, .pin, .pin], "no event for the repin")
            #expect(page.messages.filter { $0.eventKind == .message }.allSatisfy { $0.pinned == true })
            let resumed = try await server.modernClient(bob, resume: [group.id: 2])
            let replayed = try await resumed.nextEvent(.pin)
            #expect(replayed.seq == 3 && replayed.target == plan.seq)

            #expect(try await server.api.send(.unpinMessage, group.id, "\(plan.seq)", token: ann.token).status == 204)
            let unpin = try await annSocket.nextEvent(.pin)
            #expect(unpin.target == plan.seq && unpin.added == false)
            #expect(
                try await server.api.send(.unpinMessage, group.id, "\(plan.seq)", token: ann.token).status == 204,
                "unpinning what is not pinned changes nothing")
            // Deleting a pinned message unpins it.
            _ = try await annSocket.acked(.delete(DeleteRequest(room: group.id, clientMsgID: "d1", target: time.seq)))
            pinned = try await Self.pins(group.id, ann, on: server)
            #expect(pinned.isEmpty)
            let after = try await server.api.send(.history, group.id, token: ann.token).decode(HistoryPage.self)
            #expect(after.messages.filter { $0.eventKind == .pin }.count == 3)
            #expect(after.messages.allSatisfy { $0.pinned == nil })
            // A summary's last message and unread count ignore pins.
            let summary = try await server.api.send(.rooms, token: bob.token).decode([RoomSummary].self)
                .first { $0.id == group.id }
            #expect(summary?.lastMessage?.eventKind == .message && summary?.unreadCount == 1, "plan; not the pins")
        }
    }

    @Test(
        "who may pin: any member of a direct room or group, only a channel's owner and moderators, no muted member, no outsider; bad targets refused and nothing stored"
    )
    func pinRules() async throws {
        try await withTestServer { server in
            let ann = try await server.register("ann")
            let bob = try await server.register("bob")
            let eve = try await server.register("eve")
            let channel = try await server.api.send(
                .POST, "/rooms", json: CreateRoomRequest(kind: "channel", name: "Swift"), token: ann.token
            ).decode(RoomSummary.self)
            #expect(try await server.api.send(.join, channel.id, token: bob.token).status == 200)
            let annSocket = try await server.modernClient(ann)
            _ = try await annSocket.next(.resumed, as: ResumedFrame.self)
            let hello = try await annSocket.acked(.send(SendRequest(room: channel.id, clientMsgID: "c1", text: "hi")))
            let dm = try await server.api.send(.POST, "/dms", json: UsernameRequest(username: "bob"), token: ann.token)
                .decode(RoomSummary.self)
            let note = try await annSocket.acked(.send(SendRequest(room: dm.id, clientMsgID: "d1", text: "note")))
            let edit = try await annSocket.acked(
                .edit(EditRequest(room: dm.id, clientMsgID: "d2", target: note.seq, text: "a note")))

            func pin(_ room: String, _ seq: String, _ session: AuthSession) async throws -> (Int, String) {
                let response = try await server.api.send(.pinMessage, room, seq, token: session.token)
                return (response.status, (try? response.decode(APIErrorBody.self).code.rawValue) ?? "")
            }
            #expect(try await pin(channel.id, "\(hello.seq)", bob) == (403, "not_allowed"))
            #expect(try await pin("lobby", "1", bob) == (403, "not_allowed"))
            #expect(try await pin(channel.id, "\(hello.seq)", eve) == (403, "forbidden"))
            #expect(try await pin(UUID().uuidString, "1", eve) == (403, "forbidden"))
            #expect(try await pin(dm.id, "\(edit.seq)", bob) == (400, "bad_target"), "an edit is no message")
            #expect(try await pin(dm.id, "999", bob) == (400, "bad_target"))
            #expect(try await pin(dm.id, "0", bob) == (400, "bad_target"))
            #expect(try await pin(dm.id, "x", bob) == (400, "bad_target"))
            #expect(try await server.api.send(.pinMessage, dm.id, "\(note.seq)").status == 401)
            #expect(try await server.api.send(.pinnedMessages, dm.id, token: eve.token).status == 403)
            #expect(try await Self.pins(channel.id, ann, on: server).isEmpty, "the refusals stored nothing")

            #expect(try await pin(dm.id, "\(note.seq)", bob) == (204, ""), "either member of a direct room")
            #expect(try await pin(channel.id, "\(hello.seq)", ann) == (204, ""), "the channel's owner")
            _ = try await server.api.send(.unpinMessage, channel.id, "\(hello.seq)", token: ann.token)
            _ = try await server.api.send(
                .setRole, channel.id, bob.user.id.uuidString, json: RoleChange(role: "moderator"), token: ann.token)
            #expect(try await pin(channel.id, "\(hello.seq)", bob) == (204, ""), "a moderator")
            _ = try await server.api.send(
                .setRole, channel.id, bob.user.id.uuidString, json: RoleChange(role: "member"), token: ann.token)
            _ = try await server.api.send(.mute, channel.id, bob.user.id.uuidString, token: ann.token)
            let muted = try await server.api.send(.unpinMessage, channel.id, "\(hello.seq)", token: bob.token)
            #expect(muted.status == 403)
            #expect(try await Self.pins(channel.id, ann, on: server).map(\.seq) == [hello.seq])
            #expect(try await Self.pins(dm.id, ann, on: server).map(\.text) == ["a note"], "in its current state")
        }
    }

    @Test("a room keeps at most 50 pinned messages: the 51st is refused until one is unpinned")
    func pinLimit() async throws {
        // The 51 messages are written at once: the send limit is not what this test is about.
        try await withTestServer({ $0.sendBurst = 100 }) { server in
            let ann = try await server.register("ann")
            let bob = try await server.register("bob")
            let cat = try await server.register("cat")
            let group = try await server.api.send(
                .POST, "/rooms", json: CreateRoomRequest(kind: "group", name: "Notes", members: ["bob", "cat"]),
                token: ann.token
            ).decode(RoomSummary.self)
            for index in 1...51 {
                let ack = try await server.api.send(
                    .postMessage, group.id, json: PostMessageRequest(text: "note \(index)", clientMsgID: "n\(index)"),
                    token: ann.token)
                #expect(ack.status == 201)
            }
            // Three members share the work: each may pin 20 at once before their own rate limit.
            let pinners = [ann, bob, cat]
            for seq in 1...50 {
                let reply = try await server.api.send(.pinMessage, group.id, "\(seq)", token: pinners[seq % 3].token)
                #expect(reply.status == 204, "pin \(seq)")
            }
            let refused = try await server.api.send(.pinMessage, group.id, "51", token: cat.token)
            #expect(refused.status == 409)
            #expect(try refused.decode(APIErrorBody.self).code == .tooManyPins)
            #expect(try await Self.pins(group.id, ann, on: server).count == 50)
            #expect(try await server.api.send(.unpinMessage, group.id, "1", token: cat.token).status == 204)
            #expect(try await server.api.send(.pinMessage, group.id, "51", token: cat.token).status == 204)
            #expect(try await Self.pins(group.id, ann, on: server).first?.seq == 51)
        }
    }
}
