import ChatProtocol
import ChatServer
import ChatTestSupport
import Foundation
import NIOHTTP1
import Testing

/// `GET /api/v1/me/export` and `GET /api/v1/admin/rooms` (PROTOCOL.md §10.5, §10.6), on SQLite and PostgreSQL.
@Suite("An account's export and the administrators' room list")
struct ExportAndRoomListTests {
    @Test(
        "the export holds the profile, the rooms and every message sent as it reads now (edited, deleted left out, attachments), over several pages, streamed"
    )
    func export() async throws {
        try await withTestServer({
            $0.sendBurst = 100_000
            $0.sendRate = 100_000
        }) { server in
            let ann = try await server.register("ann")
            _ = try await server.register("bob")
            let group = try await server.api.send(
                .POST, "/rooms", json: CreateRoomRequest(kind: "group", name: "Tea", members: ["bob"]), token: ann.token
            ).decode(RoomSummary.self)
            let upload = try await server.api.send(
                .POST, "/attachments?name=notes.txt", bytes: Array("notes".utf8), contentType: "text/plain",
                token: ann.token
            ).decode(AttachmentPayload.self)
            let socket = try await server.modernClient(ann)
            _ = try await socket.next(.resumed, as: ResumedFrame.self)
            let total = 1_100  // three pages
            for index in 0..<total {
                try await socket.send(
                    .send(SendRequest(room: "lobby", clientMsgID: "l\(index)", text: "line \(index)")))
            }
            for _ in 0..<total { _ = try await socket.next(.ack, as: AckFrame.self) }
            let first = try await socket.acked(
                .send(
                    SendRequest(room: group.id, clientMsgID: "g1", text: "first", attachments: [upload.id.uuidString])))
            let second = try await socket.acked(.send(SendRequest(room: group.id, clientMsgID: "g2", text: "oops")))
            _ = try await socket.acked(
                .edit(EditRequest(room: group.id, clientMsgID: "e1", target: first.seq, text: "first, edited")))
            _ = try await socket.acked(.delete(DeleteRequest(room: group.id, clientMsgID: "d1", target: second.seq)))
            // Someone else's message is not in ann's export.
            let bob = try await server.api.send(
                .POST, "/login", json: LoginRequest(username: "bob", password: "correct horse")
            )
            .decode(AuthSession.self)
            let bobSocket = try await server.modernClient(bob)
            _ = try await bobSocket.acked(.send(SendRequest(room: group.id, clientMsgID: "b1", text: "bob's")))

            let reply = try await server.api.send(.export, token: ann.token)
            #expect(reply.status == 200)
            #expect(reply.headers.first(name: "Content-Length") == nil, "a streamed body has no length")
            #expect(reply.headers.first(name: "Content-Disposition")?.contains("swiftchat-ann.json") == true)
            let export = try reply.decode(AccountExport.self)
            #expect(export.format == "swiftchat-export-1")
            #expect(export.profile.username == "ann")
            #expect(Set(export.rooms.map(\.id)) == ["lobby", group.id])
            let lobby = export.messages.filter { $0.room == "lobby" }
            #expect(lobby.map(\.text) == (0..<total).map { "line \($0)" })
            #expect(lobby.map(\.seq) == lobby.map(\.seq).sorted())
            let inGroup = export.messages.filter { $0.room == group.id }
            #expect(inGroup.map(\.text) == ["first, edited"])
            #expect(inGroup.first?.editedAt != nil)
            #expect(inGroup.first?.attachments?.map(\.id) == [upload.id])
            #expect(export.messages.count == total + 1)

            #expect(try await server.api.send(.export).status == 401)
        }
    }

    @Test("administrators list every room with kind, name, member count and last activity, paged; no one else may")
    func roomList() async throws {
        try await withTestServer { server in
            let admin = try await server.registerAdministrator()
            let ann = try await server.register("ann")
            _ = try await server.register("bob")
            let group = try await server.api.send(
                .POST, "/rooms", json: CreateRoomRequest(kind: "group", name: "Tea", members: ["bob"]), token: ann.token
            ).decode(RoomSummary.self)
            let socket = try await server.modernClient(ann)
            _ = try await socket.acked(.send(SendRequest(room: group.id, clientMsgID: "m", text: "secret plans")))

            let refused = try await server.api.send(.adminRooms, token: ann.token)
            #expect(refused.status == 403)
            let reply = try await server.api.send(.adminRooms, token: admin.token)
            #expect(!String(decoding: reply.body, as: UTF8.self).contains("secret plans"))
            let page = try reply.decode(AdminRoomPage.self)
            let tea = try #require(page.rooms.first { $0.id == group.id })
            #expect(tea.kind == .known(.group) && tea.name == "Tea" && tea.members == 2 && tea.createdBy == ann.user.id)
            #expect(tea.lastActivity != nil)
            let lobby = try #require(page.rooms.first { $0.id == "lobby" })
            #expect(lobby.members == 3)

            var ids: [String] = []
            var after: String?
            repeat {
                let next = try await server.api.send(
                    .adminRooms, query: [("limit", "1"), ("after", after)], token: admin.token
                ).decode(AdminRoomPage.self)
                ids += next.rooms.map(\.id)
                after = next.next
            } while after != nil
            #expect(ids == page.rooms.map(\.id))
            #expect(try await server.api.send(.adminRooms, query: [("limit", "0")], token: admin.token).status == 400)
        }
    }
}
