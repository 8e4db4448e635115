import ChatProtocol
import ChatServer
import ChatTestSupport
import Foundation
import NIOHTTP1
import Testing

/// Mentions and notification levels (PROTOCOL.md §9.10), on SQLite and PostgreSQL.
@Suite("Mentions and notification levels")
struct MentionTests {
    @Test(
        "@username mentions a member: carried by the frame, history and the summary's mentionCount, listed by GET /mentions; an edit recomputes them and a delete drops them"
    )
    func mentionsFollowTheText() async throws {
        try await withTestServer { server in
            let ann = try await server.register("ann")
            let bob = try await server.register("bob")
            let carol = try await server.register("carol")
            _ = try await server.register("dan")
            let group = try await server.api.send(
                .createRoom, json: CreateRoomRequest(kind: "group", name: "Tea", members: ["bob", "carol"]),
                token: ann.token
            ).decode(RoomSummary.self)
            let annSocket = try await server.modernClient(ann)
            _ = try await annSocket.next(.resumed, as: ResumedFrame.self)
            let bobSocket = try await server.modernClient(bob)
            _ = try await bobSocket.next(.resumed, as: ResumedFrame.self)
            let text = "hi @Bob and @carol. (@dan is not here, nor @nobody; @ann is me) mail@bob.example"
            let sent = try await annSocket.acked(.send(SendRequest(room: group.id, clientMsgID: "a1", text: text)))
            let live = try await bobSocket.nextEvent(.message)
            #expect(live.event.mentions == [bob.user.id, carol.user.id] && live.event.mentionsAll == nil)

            #expect(try await server.mentionCount(in: group.id, for: bob) == 1)
            #expect(try await server.mentionCount(in: group.id, for: ann) == 0)
            let bobs = try await server.api.send(.mentions, token: bob.token).decode(MentionPage.self)
            #expect(bobs.messages.map(\.seq) == [sent.seq] && bobs.next == nil)
            #expect(try await server.api.send(.mentions, token: ann.token).decode(MentionPage.self).messages.isEmpty)

            _ = try await annSocket.acked(
                .edit(EditRequest(room: group.id, clientMsgID: "a2", target: sent.seq, text: "only @carol")))
            let edit = try await bobSocket.nextEvent(.edit)
            #expect(edit.event.mentions == [carol.user.id])
            let page = try await server.api.send(.history, group.id, token: bob.token).decode(HistoryPage.self)
            #expect(page.messages.first { $0.seq == sent.seq }?.mentions == [carol.user.id])
            #expect(try await server.mentionCount(in: group.id, for: bob) == 0)
            #expect(try await server.api.send(.mentions, token: bob.token).decode(MentionPage.self).messages.isEmpty)
            let carols = try await server.api.send(.mentions, token: carol.token).decode(MentionPage.self)
            #expect(carols.messages.map(\.text) == ["only @carol"])

            _ = try await annSocket.acked(.delete(DeleteRequest(room: group.id, clientMsgID: "a3", target: sent.seq)))
            #expect(try await server.mentionCount(in: group.id, for: carol) == 0)
            #expect(try await server.api.send(.mentions, token: carol.token).decode(MentionPage.self).messages.isEmpty)
        }
    }

    @Test(
        "@all mentions everyone in a small room; in a channel of more than 20 members only its moderators and owner may use it; a tutorial client mentions by name in the lobby"
    )
    func everyone() async throws {
        try await withTestServer { server in
            let ann = try await server.register("ann")
            let bob = try await server.register("bob")
            let group = try await server.api.send(
                .createRoom, json: CreateRoomRequest(kind: "group", name: "Tea", members: ["bob"]), token: ann.token
            ).decode(RoomSummary.self)
            let bobSocket = try await server.modernClient(bob)
            _ = try await bobSocket.next(.resumed, as: ResumedFrame.self)
            let annSocket = try await server.modernClient(ann)
            _ = try await annSocket.next(.resumed, as: ResumedFrame.self)
            _ = try await bobSocket.acked(.send(SendRequest(room: group.id, clientMsgID: "b1", text: "@all tea?")))
            #expect(try await annSocket.nextEvent(.message).event.mentionsAll == true)
            #expect(try await server.mentionCount(in: group.id, for: ann) == 1)
            #expect(try await server.api.send(.mentions, token: ann.token).decode(MentionPage.self).messages.count == 1)

            let channel = try await server.api.send(
                .createRoom, json: CreateRoomRequest(kind: "channel", name: "Town"), token: ann.token
            ).decode(RoomSummary.self)
            _ = try await server.api.send(.join, channel.id, token: bob.token)
            for index in 1...19 {
                let extra = try await server.register("member\(index)")
                _ = try await server.api.send(.join, channel.id, token: extra.token)
            }
            _ = try await bobSocket.acked(.send(SendRequest(room: channel.id, clientMsgID: "b2", text: "@room hello")))
            #expect(try await annSocket.nextEvent(.message).event.mentionsAll == nil)
            _ = try await annSocket.acked(.send(SendRequest(room: channel.id, clientMsgID: "a1", text: "@all news")))
            #expect(try await bobSocket.nextEvent(.message).event.mentionsAll == true)

            let luke = try await server.joinedLineClient("Luke")
            try await luke.write("msg:ping @ann\n")
            var fromLuke = try await annSocket.nextEvent(.message)
            while fromLuke.event.room != "lobby" { fromLuke = try await annSocket.nextEvent(.message) }
            #expect(fromLuke.event.mentions == [ann.user.id])
        }
    }

    @Test(
        "notification levels: the defaults by kind, a choice kept for every device; bad input is a clear error and stores nothing"
    )
    func notificationLevels() async throws {
        try await withTestServer { server in
            let ann = try await server.register("ann")
            let bob = try await server.register("bob")
            let group = try await server.api.send(
                .createRoom, json: CreateRoomRequest(kind: "group", name: "Tea", members: ["bob"]), token: ann.token
            ).decode(RoomSummary.self)
            let dm = try await server.api.send(.directRoom, json: UsernameRequest(username: "bob"), token: ann.token)
                .decode(RoomSummary.self)
            let rooms = try await server.api.send(.rooms, token: ann.token).decode([RoomSummary].self)
            let levels = Dictionary(uniqueKeysWithValues: rooms.map { ($0.id, $0.notifications) })
            #expect(levels[group.id] == .all && levels[dm.id] == .all && levels["lobby"] == .mentions)

            let set = try await server.api.send(
                .notifications, group.id, json: NotificationLevelRequest(level: "none"), token: ann.token)
            #expect(try set.status == 200 && set.decode(RoomSummary.self).notifications == NotificationLevel.none)
            let again = try await server.api.send(.rooms, token: ann.token).decode([RoomSummary].self)
            #expect(again.first { $0.id == group.id }?.notifications == NotificationLevel.none)
            let bobs = try await server.api.send(.rooms, token: bob.token).decode([RoomSummary].self)
            #expect(bobs.first { $0.id == group.id }?.notifications == .all)

            let bad = try await server.api.send(
                .notifications, group.id, json: NotificationLevelRequest(level: "loud"), token: ann.token)
            #expect(try bad.status == 400 && bad.decode(APIErrorBody.self).code == .invalidBody)
            let eve = try await server.register("eve")
            let stranger = try await server.api.send(
                .notifications, group.id, json: NotificationLevelRequest(level: "all"), token: eve.token)
            #expect(stranger.status == 403)
            let limit = try await server.api.send(.mentions, query: [("limit", "0")], token: ann.token)
            #expect(try limit.status == 400 && limit.decode(APIErrorBody.self).code == .invalidLimit)
            #expect(
                try await server.api.send(.rooms, token: ann.token).decode([RoomSummary].self)
                    .first { $0.id == group.id }?.notifications == NotificationLevel.none)
        }
    }
}

extension TestServer {
    func mentionCount(in room: String, for session: AuthSession) async throws -> Int64? {
        try await self.api.send(.rooms, token: session.token).decode([RoomSummary].self)
            .first { $0.id == room }?.mentionCount
    }
}
