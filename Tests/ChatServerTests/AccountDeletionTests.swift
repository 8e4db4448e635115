import ChatProtocol
import ChatTestSupport
import Foundation
import NIOHTTP1
import Testing

/// Deleting an account (PROTOCOL.md §10.6), by its owner and by an administrator, on SQLite and PostgreSQL.
@Suite("Deleting an account")
struct AccountDeletionTests {
    @Test(
        "deleting my account: its sockets close with 4003, each of its messages is deleted for everyone, it reads 'Deleted user', leaves its groups but not its direct rooms, and its name is free"
    )
    func deleteMine() async throws {
        try await withTestServer { server in
            let admin = try await server.registerAdministrator()
            let (ann, bob, dm, annSocket, bobSocket) = try await server.pair()
            let group = try await server.api.send(
                .POST, "/rooms", json: CreateRoomRequest(kind: "group", name: "Tea", members: ["bob"]), token: ann.token
            ).decode(RoomSummary.self)
            let upload = try await server.api.send(
                .POST, "/attachments?name=a.txt", bytes: Array("secret".utf8), contentType: "text/plain",
                token: ann.token
            ).decode(AttachmentPayload.self)
            _ = try await annSocket.acked(
                .send(SendRequest(room: dm.id, clientMsgID: "d1", text: "private", attachments: [upload.id.uuidString]))
            )
            _ = try await annSocket.acked(.send(SendRequest(room: group.id, clientMsgID: "g1", text: "in the group")))
            _ = try await annSocket.acked(.send(SendRequest(room: "lobby", clientMsgID: "l1", text: "in the lobby")))
            _ = try await bobSocket.acked(.send(SendRequest(room: dm.id, clientMsgID: "b1", text: "bob's stays")))

            let wrong = try await server.api.send(
                .deleteMe, json: AccountDeletionRequest(password: "not it"), token: ann.token)
            #expect(wrong.status == 401)
            #expect(try await server.api.send(.GET, "/me", token: ann.token).status == 200)

            let deleted = try await server.api.send(
                .deleteMe, json: AccountDeletionRequest(password: "correct horse"), token: ann.token)
            #expect(deleted.status == 204)
            #expect(try await annSocket.nextCloseCode(timeout: .seconds(10)) == 4003)
            // Bob sees every one of ann's messages deleted where he can see them: the direct room, the group and the
            // lobby, in whatever order the rooms commit them.
            var deletedIn: Set<String> = []
            while deletedIn.count < 3 {
                let event = try await bobSocket.nextEvent(.delete)
                #expect(event.sender.id == ann.user.id)
                deletedIn.insert(event.room)
            }
            #expect(deletedIn == [dm.id, group.id, "lobby"])
            let dmHistory = try await server.api.send(.history, dm.id, token: bob.token).decode(HistoryPage.self)
            #expect(
                dmHistory.messages.filter { $0.eventKind == .message && $0.deleted != true }.map(\.text) == [
                    "bob's stays"
                ])
            let body = String(
                decoding: try await server.api.send(.history, dm.id, token: bob.token).body, as: UTF8.self)
            #expect(!body.contains("private") && !body.contains(upload.id.uuidString))
            let lobby = try await server.api.send(.history, "lobby", token: bob.token).decode(HistoryPage.self)
            #expect(!lobby.messages.contains { $0.text == "in the lobby" })
            // The direct room stays for bob, with a deleted user in it; the group has bob alone.
            let rooms = try await server.api.send(.GET, "/rooms", token: bob.token).decode([RoomSummary].self)
            #expect(rooms.first { $0.id == dm.id }?.peer?.displayName == "Deleted user")
            let members = try await server.api.send(.members, group.id, token: bob.token).decode([UserProfile].self)
            #expect(members.map(\.username) == ["bob"])
            #expect(
                try await server.api.send(
                    .POST, "/login", json: LoginRequest(username: "ann", password: "correct horse")
                ).status == 401)
            #expect(
                try await server.api.send(
                    .POST, "/register", json: RegisterRequest(username: "ann", password: "another one")
                ).status == 201)
            let audit = try await server.api.send(.adminAudit, token: admin.token).decode(AuditPage.self)
            #expect(audit.entries.map(\.action) == ["grant", "delete-account"])
            #expect(audit.entries.last?.actor == ann.user.id)
        }
    }

    @Test(
        "an administrator deletes an account, and asked again finishes or repeats it harmlessly; not the last administrator, and no one else may"
    )
    func administratorDeletes() async throws {
        try await withTestServer { server in
            let admin = try await server.registerAdministrator()
            let bob = try await server.register("bob")
            let socket = try await server.modernClient(bob)
            _ = try await socket.acked(.send(SendRequest(room: "lobby", clientMsgID: "b", text: "spam")))
            #expect(
                try await server.api.send(.adminDeleteUser, admin.user.id.uuidString, token: bob.token).status == 403)
            #expect(
                try await server.api.send(.adminDeleteUser, bob.user.id.uuidString, token: admin.token).status == 204)
            #expect(try await socket.nextCloseCode(timeout: .seconds(10)) == 4003)
            #expect(
                try await server.api.send(.adminDeleteUser, bob.user.id.uuidString, token: admin.token).status == 204)
            let users = try await server.api.send(.adminUsers, token: admin.token).decode(AdminUserPage.self)
            let deleted = try #require(users.users.first { $0.profile.id == bob.user.id })
            #expect(deleted.profile.displayName == "Deleted user" && deleted.deactivated)
            #expect(deleted.profile.username.hasPrefix("deleted-"))
            let last = try await server.api.send(.adminDeleteUser, admin.user.id.uuidString, token: admin.token)
            #expect(last.status == 409)
            #expect(try last.decode(APIErrorBody.self).code == .lastAdministrator)
            #expect(try await server.api.send(.adminDeleteUser, UUID().uuidString, token: admin.token).status == 404)
            #expect(try await server.api.send(.GET, "/me", token: admin.token).status == 200)
        }
    }
}
