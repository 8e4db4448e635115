import ChatProtocol
import ChatServer
import ChatTestSupport
import Foundation
import NIOHTTP1
import Testing

@Suite("Rooms, direct rooms and history over /api/v1 (PROTOCOL.md §7)")
struct RoomsAPITests {
    @Test("every account starts in the lobby, where the tutorial clients' messages are")
    func lobbyForEveryone() async throws {
        try await withTestServer { server in
            let tcp = try await server.joinedLineClient("Luke")
            try await tcp.write("msg:hello modern world\n")
            try await tcp.waitForLine("Luke:hello modern world")
            let ann = try await server.register("ann")
            let rooms = try await server.api.send(.GET, "/rooms", token: ann.token).decode([RoomSummary].self)
            #expect(rooms.map(\.id) == ["lobby"])
            #expect(rooms[0].kind == .known(.channel) && rooms[0].name == "Lobby")
            #expect(rooms[0].lastMessage?.text == "hello modern world" && rooms[0].lastMessage?.sender.name == "Luke")
            #expect(rooms[0].latestSeq == 1 && rooms[0].unreadCount == 1)
        }
    }

    @Test("channels are public: listed with member counts, joinable, leavable")
    func channels() async throws {
        try await withTestServer { server in
            let ann = try await server.register("ann")
            let bob = try await server.register("bob")
            let created = try await server.api.send(
                .POST, "/rooms", json: CreateRoomRequest(kind: "channel", name: "Swift"), token: ann.token)
            #expect(created.status == 201)
            let room = try created.decode(RoomSummary.self)
            var listed = try await server.api.send(.GET, "/rooms/public", token: bob.token).decode(
                [ChannelSummary].self)
            #expect(listed.contains(ChannelSummary(id: room.id, name: "Swift", members: 1, joined: false)))
            #expect(try await server.api.send(.POST, "/rooms/\(room.id)/join", token: bob.token).status == 200)
            listed = try await server.api.send(.GET, "/rooms/public", token: bob.token).decode([ChannelSummary].self)
            #expect(listed.contains(ChannelSummary(id: room.id, name: "Swift", members: 2, joined: true)))
            #expect(try await server.api.send(.POST, "/rooms/\(room.id)/leave", token: bob.token).status == 204)
            let bobsRooms = try await server.api.send(.GET, "/rooms", token: bob.token).decode([RoomSummary].self)
            #expect(!bobsRooms.contains { $0.id == room.id })
        }
    }

    @Test("groups are private: not listed, not joinable, members invite")
    func groups() async throws {
        try await withTestServer { server in
            let ann = try await server.register("ann")
            let bob = try await server.register("bob")
            let cat = try await server.register("cat")
            let group = try await server.api.send(
                .POST, "/rooms", json: CreateRoomRequest(kind: "group", name: "Secret", members: ["bob"]),
                token: ann.token
            ).decode(RoomSummary.self)
            #expect(
                try await server.api.send(.GET, "/rooms", token: bob.token).decode([RoomSummary].self).contains {
                    $0.id == group.id
                })
            #expect(
                try await server.api.send(.GET, "/rooms/public", token: cat.token).decode([ChannelSummary].self)
                    .allSatisfy { $0.id != group.id })
            let refused = try await server.api.send(.POST, "/rooms/\(group.id)/join", token: cat.token)
            #expect(refused.status == 403)
            #expect(
                try await server.api.send(
                    .POST, "/rooms/\(group.id)/invite", json: UsernameRequest(username: "cat"), token: bob.token
                ).status == 204)
            #expect(
                try await server.api.send(.GET, "/rooms", token: cat.token).decode([RoomSummary].self).contains {
                    $0.id == group.id
                })
        }
    }

    @Test("a direct room is created on first use, one per pair, and private to its two members")
    func directRooms() async throws {
        try await withTestServer { server in
            let ann = try await server.register("ann", displayName: "Ann Lee")
            let bob = try await server.register("bob", displayName: "Bob Ray")
            let eve = try await server.register("eve")
            let fromAnn = try await server.api.send(
                .POST, "/dms", json: UsernameRequest(username: "bob"), token: ann.token
            ).decode(RoomSummary.self)
            let fromBob = try await server.api.send(
                .POST, "/dms", json: UsernameRequest(username: "ANN"), token: bob.token
            ).decode(RoomSummary.self)
            #expect(fromAnn.id == fromBob.id && fromAnn.kind == .known(.direct))
            #expect(fromAnn.name == "Bob Ray" && fromAnn.peer?.username == "bob")
            #expect(fromBob.name == "Ann Lee")
            let snooping = try await server.api.send(.GET, "/rooms/\(fromAnn.id)/messages", token: eve.token)
            let missing = try await server.api.send(.GET, "/rooms/\(UUID().uuidString)/messages", token: eve.token)
            #expect(snooping.status == 403 && missing.status == 403)
            #expect(snooping.body == missing.body)  // nothing tells whether the room exists
            #expect(
                try await server.api.send(
                    .POST, "/rooms/\(fromAnn.id)/invite", json: UsernameRequest(username: "eve"), token: ann.token
                ).status == 400)
        }
    }

    @Test("history pages backwards with an explicit end marker")
    func historyPaging() async throws {
        try await withTestServer { server in
            let tcp = try await server.joinedLineClient("writer")
            for index in 1...120 { try await tcp.write("msg:m\(index)\n") }
            try await tcp.waitForLine("writer:m120")
            let ann = try await server.register("ann")
            var page = try await server.api.send(.GET, "/rooms/lobby/messages?limit=50", token: ann.token).decode(
                HistoryPage.self)
            #expect(page.messages.map(\.seq) == Array(71...120) && page.hasMore)
            page = try await server.api.send(.GET, "/rooms/lobby/messages?limit=50&before=71", token: ann.token).decode(
                HistoryPage.self)
            #expect(page.messages.map(\.seq) == Array(21...70) && page.hasMore)
            page = try await server.api.send(.GET, "/rooms/lobby/messages?limit=50&before=21", token: ann.token).decode(
                HistoryPage.self)
            #expect(page.messages.map(\.seq) == Array(1...20) && !page.hasMore)
            #expect(page.messages.first?.text == "m1")
            #expect(try await server.api.send(.GET, "/rooms/lobby/messages?limit=0", token: ann.token).status == 400)
        }
    }

    @Test(
        "bad room requests get a clear error",
        arguments: [
            (CreateRoomRequest(kind: "direct", name: "x"), 400, "invalid_kind"),
            (CreateRoomRequest(kind: "party", name: "x"), 400, "invalid_kind"),
            (CreateRoomRequest(kind: "group", name: "   "), 400, "invalid_name"),
            (CreateRoomRequest(kind: "group", name: "x", members: ["nobody"]), 404, "unknown_user"),
        ])
    func badRooms(request: CreateRoomRequest, status: Int, code: String) async throws {
        try await withTestServer { server in
            let ann = try await server.register("ann")
            let reply = try await server.api.send(.POST, "/rooms", json: request, token: ann.token)
            #expect(reply.status == status)
            #expect(try reply.decode(APIErrorBody.self).code.rawValue == code)
            #expect(
                try await server.api.send(.GET, "/rooms", token: ann.token).decode([RoomSummary].self).map(\.id) == [
                    "lobby"
                ])
            #expect(
                try await server.api.send(.POST, "/dms", json: UsernameRequest(username: "ann"), token: ann.token)
                    .status == 400)
        }
    }

    @Test("members of a room: profiles by username, for members only, with a limit")
    func members() async throws {
        try await withTestServer { server in
            let ann = try await server.register("ann")
            _ = try await server.register("bob")
            let carol = try await server.register("carol")
            let group = try await server.api.send(
                .POST, "/rooms", json: CreateRoomRequest(kind: "group", name: "Trip", members: ["bob"]),
                token: ann.token
            ).decode(RoomSummary.self)
            let members = try await server.api.send(.GET, "/rooms/\(group.id)/members", token: ann.token).decode(
                [UserProfile].self)
            #expect(members.map(\.username) == ["ann", "bob"])
            #expect(try await server.api.send(.GET, "/rooms/\(group.id)/members", token: carol.token).status == 403)
            let one = try await server.api.send(.GET, "/rooms/\(group.id)/members?limit=1", token: ann.token).decode(
                [UserProfile].self)
            #expect(one.map(\.username) == ["ann"])
            #expect(
                try await server.api.send(.GET, "/rooms/\(group.id)/members?limit=0", token: ann.token).status == 400)
        }
    }
}
