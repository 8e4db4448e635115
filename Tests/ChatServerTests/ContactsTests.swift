import ChatCore
import ChatProtocol
import ChatServer
import ChatTestSupport
import Foundation
import NIOHTTP1
import Testing

/// Contacts (PROTOCOL.md §6.4) on SQLite and PostgreSQL: the people I added and those of my direct rooms and groups,
/// never the lobby or a channel's crowd.
@Suite("Contacts: the people I talk to, not the whole server")
struct ContactsTests {
    static func contacts(of account: AuthSession, on server: TestServer) async throws -> [ContactPayload] {
        try await server.api.send(.contacts, token: account.token).decode(ContactList.self).contacts
    }

    @Test(
        "my contacts are the people of my direct rooms and groups and those I added, A–Z; not the lobby's or a channel's; a removed one stays while we share a room"
    )
    func contacts() async throws {
        try await withTestServer { server in
            let ann = try await server.register("ann")
            let bob = try await server.register("bob")
            let carol = try await server.register("carol")
            let dan = try await server.register("dan")
            _ = try await server.register("erin")
            #expect(try await Self.contacts(of: ann, on: server).isEmpty, "the lobby makes nobody a contact")

            _ = try await server.api.send(.directRoom, json: UsernameRequest(username: "dan"), token: ann.token)
            _ = try await server.api.send(
                .createRoom, json: CreateRoomRequest(kind: "group", name: "Trip", members: ["carol"]), token: ann.token)
            let channel = try await server.api.send(
                .createRoom, json: CreateRoomRequest(kind: "channel", name: "town-square"), token: ann.token
            ).decode(RoomSummary.self)
            _ = try await server.api.send(.join, channel.id, token: bob.token)
            let added = try await server.api.send(
                .addContact, json: UsernameRequest(username: "erin"), token: ann.token)
            #expect(added.status == 201)
            #expect(try added.decode(ContactPayload.self).added == true)
            // Adding again changes nothing.
            #expect(
                try await server.api.send(.addContact, json: UsernameRequest(username: "erin"), token: ann.token)
                    .status == 201)

            let listed = try await Self.contacts(of: ann, on: server)
            #expect(listed.map(\.user.username) == ["carol", "dan", "erin"], "bob is only in a channel with me")
            #expect(listed.map(\.added) == [nil, nil, true])
            #expect(try await Self.contacts(of: dan, on: server).map(\.user.username) == ["ann"])
            #expect(try await Self.contacts(of: carol, on: server).map(\.user.username) == ["ann"])

            let erin = try #require(listed.last?.user.id)
            #expect(try await server.api.send(.removeContact, erin.uuidString, token: ann.token).status == 204)
            #expect(try await Self.contacts(of: ann, on: server).map(\.user.username) == ["carol", "dan"])
            // Dan is a contact through our direct room, not by hand: there is nothing to remove.
            let danID = dan.user.id.uuidString
            #expect(
                try await server.api.send(.addContact, json: UsernameRequest(username: "dan"), token: ann.token).status
                    == 201)
            #expect(try await server.api.send(.removeContact, danID, token: ann.token).status == 204)
            #expect(try await Self.contacts(of: ann, on: server).map(\.user.username) == ["carol", "dan"])
        }
    }

    @Test(
        "adding nobody, myself or a deactivated account, and removing someone I never added, are refused; blocked people are not listed"
    )
    func refusals() async throws {
        try await withTestServer { server in
            let ann = try await server.register("ann")
            let bob = try await server.register("bob")
            _ = try await server.register("carol")
            let cases: [(String, Int, ErrorCode)] = [
                ("nobody", 404, .unknownUser), ("ann", 400, .invalidPeer),
            ]
            for (username, status, code) in cases {
                let reply = try await server.api.send(
                    .addContact, json: UsernameRequest(username: username), token: ann.token)
                #expect(reply.status == status, "\(username)")
                #expect(try reply.decode(APIErrorBody.self).code == code, "\(username)")
            }
            _ = try await server.admin("deactivate", "carol")
            #expect(
                try await server.api.send(.addContact, json: UsernameRequest(username: "carol"), token: ann.token)
                    .status == 404)
            let never = try await server.api.send(.removeContact, bob.user.id.uuidString, token: ann.token)
            #expect(never.status == 404)
            #expect(try await server.api.send(.removeContact, "not-an-id", token: ann.token).status == 404)

            _ = try await server.api.send(.addContact, json: UsernameRequest(username: "bob"), token: ann.token)
            #expect(try await Self.contacts(of: ann, on: server).map(\.user.username) == ["bob"])
            _ = try await server.api.send(.block, bob.user.id.uuidString, token: ann.token)
            #expect(try await Self.contacts(of: ann, on: server).isEmpty)
        }
    }
}
