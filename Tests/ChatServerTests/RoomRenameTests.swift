import ChatProtocol
import ChatServer
import ChatTestSupport
import Foundation
import NIOHTTP1
import Testing

@Suite("Renaming a channel or group: PATCH /api/v1/rooms/{id}, a `rename` event of the room (PROTOCOL.md §7, §9.1)")
struct RoomRenameTests {
    @Test("a member renames a group: the summary, every member's socket, history and a later resume all show it")
    func groupRename() async throws {
        try await withTestServer { server in
            let ann = try await server.register("ann")
            let bob = try await server.register("bob")
            let group = try await server.api.send(
                .POST, "/rooms", json: CreateRoomRequest(kind: "group", name: "Trip", members: ["bob"]),
                token: ann.token
            )
            .decode(RoomSummary.self)
            let annSocket = try await server.modernClient(ann)
            _ = try await annSocket.next(.resumed, as: ResumedFrame.self)
            _ = try await annSocket.acked(
                .send(SendRequest(room: group.id, clientMsgID: "m1", text: "where to?")))

            let renamed = try await server.api.send(
                .PATCH, "/rooms/\(group.id)", json: RenameRoomRequest(name: "  Trip to Kyoto "), token: bob.token)
            #expect(renamed.status == 200)
            #expect(try renamed.decode(RoomSummary.self).name == "Trip to Kyoto")

            let live = try await annSocket.nextEvent(.rename)
            #expect(
                live.room == group.id && live.seq == 2 && live.text == "Trip to Kyoto" && live.sender.name == "bob"
                    && live.target == nil)
            let annRooms = try await server.api.send(.GET, "/rooms", token: ann.token).decode([RoomSummary].self)
            let annView = try #require(annRooms.first { $0.id == group.id })
            #expect(annView.name == "Trip to Kyoto" && annView.latestSeq == 2)
            #expect(annView.lastMessage?.text == "where to?")  // a rename is not a message: no preview, not unread
            let bobView = try #require(
                try await server.api.send(.GET, "/rooms", token: bob.token).decode([RoomSummary].self).first {
                    $0.id == group.id
                })
            #expect(bobView.unreadCount == 1)

            let page = try await server.api.send(.GET, "/rooms/\(group.id)/messages", token: ann.token).decode(
                HistoryPage.self)
            #expect(page.messages.map(\.eventKind) == [.message, .rename])
            let resumed = try await server.modernClient(bob, resume: [group.id: 1])
            #expect(try await resumed.nextEvent(.rename).seq == 2)

            // The same name again stores nothing; search never finds a room name.
            _ = try await server.api.send(
                .PATCH, "/rooms/\(group.id)", json: RenameRoomRequest(name: "Trip to Kyoto"), token: ann.token)
            let after = try await server.api.send(.GET, "/rooms/\(group.id)/messages", token: ann.token).decode(
                HistoryPage.self)
            #expect(after.messages.count == 2)
            let found = try await server.api.send(.GET, "/search?q=Kyoto", token: ann.token)
            #expect(found.status == 200 && !String(decoding: found.body, as: UTF8.self).contains("Kyoto"))
        }
    }

    @Test(
        "who may rename: only a channel's owner and moderators, no direct room, no outsider, no muted member; bad names refused; nothing stored"
    )
    func renameRules() async throws {
        try await withTestServer { server in
            let ann = try await server.register("ann")
            let bob = try await server.register("bob")
            let eve = try await server.register("eve")
            let channel = try await server.api.send(
                .POST, "/rooms", json: CreateRoomRequest(kind: "channel", name: "Swift"), token: ann.token
            )
            .decode(RoomSummary.self)
            #expect(try await server.api.send(.POST, "/rooms/\(channel.id)/join", token: bob.token).status == 200)
            let dm = try await server.api.send(.POST, "/dms", json: UsernameRequest(username: "bob"), token: ann.token)
                .decode(RoomSummary.self)

            func code(_ room: String, _ body: String, _ session: AuthSession) async throws -> (Int, String) {
                let response = try await server.api.send(.PATCH, "/rooms/\(room)", raw: body, token: session.token)
                return (response.status, (try? response.decode(APIErrorBody.self).code.rawValue) ?? "")
            }
            #expect(try await code(channel.id, #"{"name":"Mine"}"#, bob) == (403, "not_allowed"))
            #expect(try await code("lobby", #"{"name":"Mine"}"#, ann) == (403, "not_allowed"))
            #expect(try await code(channel.id, #"{"name":"Mine"}"#, eve) == (403, "forbidden"))
            #expect(try await code(UUID().uuidString, #"{"name":"Mine"}"#, eve) == (403, "forbidden"))
            #expect(try await code(dm.id, #"{"name":"Us"}"#, ann) == (400, "cannot_rename"))
            #expect(try await code(channel.id, #"{"name":"   "}"#, ann) == (400, "invalid_name"))
            #expect(try await code(channel.id, #"{"name":"a\u0007b"}"#, ann) == (400, "invalid_name"))
            #expect(
                try await code(channel.id, "{\"name\":\"\(String(repeating: "x", count: 65))\"}", ann) == (
                    400, "invalid_name"
                ))
            #expect(try await code(channel.id, #"{"name":42}"#, ann).0 == 400)
            #expect(try await code(channel.id, "not json", ann).0 == 400)
            // The refused renames stored nothing: bob's joining is the room's one event.
            #expect(
                try await server.api.send(.GET, "/rooms/\(channel.id)/messages", token: ann.token).decode(
                    HistoryPage.self
                ).messages.map(\.eventKind) == [.joined])
            #expect(try await code(channel.id, #"{"name":"Swift on Server"}"#, ann) == (200, ""))
            // Named a moderator, bob may; muted, he may not.
            _ = try await server.api.send(
                .setRole, channel.id, bob.user.id.uuidString, json: RoleChange(role: "moderator"), token: ann.token)
            #expect(try await code(channel.id, #"{"name":"Swift on the Server"}"#, bob) == (200, ""))
            _ = try await server.api.send(
                .setRole, channel.id, bob.user.id.uuidString, json: RoleChange(role: "member"), token: ann.token)
            _ = try await server.api.send(.mute, channel.id, bob.user.id.uuidString, token: ann.token)
            #expect(try await code(channel.id, #"{"name":"Mine"}"#, bob) == (403, "forbidden"))
            let listed = try await server.api.send(.GET, "/rooms/public", token: eve.token).decode(
                [ChannelSummary].self)
            #expect(listed.contains { $0.id == channel.id && $0.name == "Swift on the Server" })
        }
    }
}
