import ChatProtocol
import ChatTestSupport
import Foundation
import NIOHTTP1
import Testing

/// Pinned chats and drafts kept by the server (PROTOCOL.md §7.5), on SQLite and PostgreSQL: what one device sets, the
/// room list shows on every other.
@Suite("Pinned chats and drafts, on every device")
struct PinsAndDraftsTests {
    static func summary(_ room: String, of session: AuthSession, on server: TestServer) async throws -> RoomSummary {
        let rooms = try await server.api.send(.rooms, token: session.token).decode([RoomSummary].self)
        return try #require(rooms.first { $0.id == room })
    }

    @Test("a pin and a draft show in my room list only, until I unpin it or send the draft away")
    func pinAndDraft() async throws {
        try await withTestServer { server in
            let ann = try await server.register("ann")
            let bob = try await server.register("bob")
            let dm = try await server.api.send(.POST, "/dms", json: UsernameRequest(username: "bob"), token: ann.token)
                .decode(RoomSummary.self)
            #expect(dm.pinned == nil && dm.draft == nil)
            #expect(try await server.api.send(.pin, dm.id, token: ann.token).status == 204)
            #expect(try await server.api.send(.pin, dm.id, token: ann.token).status == 204, "pinning twice is once")
            let draft = try await server.api.send(
                .draft, dm.id, json: DraftRequest(text: "see you at \u{1B}[31m8"), token: ann.token)
            #expect(draft.status == 204)
            var mine = try await Self.summary(dm.id, of: ann, on: server)
            #expect(mine.pinned == true && mine.draft == "see you at [31m8")
            let bobs = try await Self.summary(dm.id, of: bob, on: server)
            #expect(bobs.pinned == nil && bobs.draft == nil, "only mine")

            _ = try await server.api.send(.unpin, dm.id, token: ann.token)
            _ = try await server.api.send(.draft, dm.id, json: DraftRequest(text: "  "), token: ann.token)
            mine = try await Self.summary(dm.id, of: ann, on: server)
            #expect(mine.pinned == nil && mine.draft == nil)
        }
    }

    @Test(
        "a room marked unread stays so on every device until I clear the mark or read further; a room I am not in is refused"
    )
    func markedUnread() async throws {
        try await withTestServer { server in
            let (ann, bob, dm, annSocket, bobSocket) = try await server.pair()
            let first = try await bobSocket.acked(.send(SendRequest(room: dm.id, clientMsgID: "b1", text: "hi")))
            _ = try await annSocket.nextEvent(.message)
            try await annSocket.send(.read(ReadRequest(room: dm.id, seq: first.seq)))
            try await eventually("the read is kept") {
                try await Self.summary(dm.id, of: ann, on: server).lastReadSeq == first.seq
            }
            #expect(try await server.api.send(.markUnread, dm.id, token: ann.token).status == 204)
            var mine = try await Self.summary(dm.id, of: ann, on: server)
            #expect(mine.markedUnread == true && mine.unreadCount == 0)
            #expect(try await Self.summary(dm.id, of: bob, on: server).markedUnread == nil, "only mine")
            #expect(try await server.api.send(.clearUnread, dm.id, token: ann.token).status == 204)
            #expect(try await Self.summary(dm.id, of: ann, on: server).markedUnread == nil)

            // Reading further clears it, as opening the chat on another device does.
            _ = try await server.api.send(.markUnread, dm.id, token: ann.token)
            let second = try await bobSocket.acked(.send(SendRequest(room: dm.id, clientMsgID: "b2", text: "there?")))
            _ = try await annSocket.nextEvent(.message)
            mine = try await Self.summary(dm.id, of: ann, on: server)
            #expect(mine.markedUnread == true && mine.unreadCount == 1)
            try await annSocket.send(.read(ReadRequest(room: dm.id, seq: second.seq)))
            try await eventually("the read clears the mark") {
                try await Self.summary(dm.id, of: ann, on: server).markedUnread == nil
            }

            let carol = try await server.register("carol")
            for route in [APIRoute.markUnread, .clearUnread] {
                let reply = try await server.api.send(route, dm.id, token: carol.token)
                #expect(reply.status == 403)
                #expect(try reply.decode(APIErrorBody.self).code == .forbidden)
            }
        }
    }

    @Test("a room I am not in, a draft over the message limit and a bad body are refused, and nothing is kept")
    func refusals() async throws {
        try await withTestServer { server in
            let ann = try await server.register("ann")
            let carol = try await server.register("carol")
            let group = try await server.api.send(
                .POST, "/rooms", json: CreateRoomRequest(kind: "group", name: "Tea", members: []), token: ann.token
            ).decode(RoomSummary.self)
            for route in [APIRoute.pin, .unpin] {
                let reply = try await server.api.send(route, group.id, token: carol.token)
                #expect(reply.status == 403)
                #expect(try reply.decode(APIErrorBody.self).code == .forbidden)
            }
            let notMine = try await server.api.send(.draft, group.id, json: DraftRequest(text: "x"), token: carol.token)
            #expect(notMine.status == 403)
            let long = try await server.api.send(
                .draft, group.id, json: DraftRequest(text: String(repeating: "a", count: 5000)), token: ann.token)
            #expect(long.status == 413)
            #expect(try long.decode(APIErrorBody.self).code == .tooLong)
            let malformed = try await server.api.send(
                .PUT, "/rooms/\(group.id)/draft", bytes: Array("{\"text\":3}".utf8), contentType: "application/json",
                token: ann.token)
            #expect(malformed.status == 400)
            #expect(try await server.api.send(.pin, "no-such-room", token: ann.token).status == 403)
            #expect(try await server.api.send(.pin, group.id).status == 401)
            let summary = try await Self.summary(group.id, of: ann, on: server)
            #expect(summary.pinned == nil && summary.draft == nil)
        }
    }
}
