import ChatProtocol
import ChatTestSupport
import Foundation
import NIOHTTP1
import Testing

/// Blocking (PROTOCOL.md §10.7), on SQLite and PostgreSQL.
@Suite("Blocking")
struct BlockingTests {
    @Test(
        "a blocked account leaves our direct room at once, cannot write to or open it, and is left out of my people search; unblocking lets it back with the room read"
    )
    func blockAndUnblock() async throws {
        try await withTestServer { server in
            let (ann, bob, dm, annSocket, bobSocket) = try await server.pair()
            _ = try await bobSocket.acked(.send(SendRequest(room: dm.id, clientMsgID: "b1", text: "hi ann")))

            #expect(try await server.api.send(.block, bob.user.id.uuidString, token: ann.token).status == 204)
            #expect(try await bobSocket.next(.left, as: LeftFrame.self).room == dm.id)
            #expect(
                try await bobSocket.errorCode(for: .send(SendRequest(room: dm.id, clientMsgID: "b2", text: "hello?")))
                    == .forbidden)
            let reopen = try await server.api.send(
                .POST, "/dms", json: UsernameRequest(username: "ann"), token: bob.token)
            #expect(reopen.status == 403)
            #expect(try reopen.decode(APIErrorBody.self).code == .blocked)
            // Ann keeps the room and its history, still named after bob, and marked blocked.
            let annView = try await server.api.send(.rooms, token: ann.token).decode([RoomSummary].self)
                .first { $0.id == dm.id }
            #expect(annView?.peer?.username == "bob" && annView?.name == "bob" && annView?.blocked == true)
            let history = try await server.api.send(.history, dm.id, token: ann.token).decode(HistoryPage.self)
            #expect(history.messages.map(\.text) == ["hi ann"])
            #expect(
                try await server.api.send(.GET, "/users?query=bob", token: ann.token).decode([UserProfile].self).isEmpty
            )
            #expect(
                try await server.api.send(.blocks, token: ann.token).decode([UserProfile].self).map(\.username) == [
                    "bob"
                ])
            // Bob still finds ann: the search leaves out only whom I blocked.
            #expect(
                try await server.api.send(.GET, "/users?query=ann", token: bob.token).decode([UserProfile].self)
                    .map(\.username) == ["ann"])
            // Again: nothing changes.
            #expect(try await server.api.send(.block, bob.user.id.uuidString, token: ann.token).status == 204)
            _ = try await annSocket.acked(.send(SendRequest(room: dm.id, clientMsgID: "a1", text: "while blocked")))

            #expect(try await server.api.send(.unblock, bob.user.id.uuidString, token: ann.token).status == 204)
            let joined = try await bobSocket.next(.joined, as: JoinedFrame.self)
            #expect(joined.room.id == dm.id)
            let rooms = try await server.api.send(.GET, "/rooms", token: bob.token).decode([RoomSummary].self)
            #expect(rooms.first { $0.id == dm.id }?.unreadCount == 0)
            _ = try await bobSocket.acked(.send(SendRequest(room: dm.id, clientMsgID: "b3", text: "back")))
            #expect(try await server.api.send(.blocks, token: ann.token).decode([UserProfile].self).isEmpty)
            #expect(
                try await server.api.send(.rooms, token: ann.token).decode([RoomSummary].self)
                    .first { $0.id == dm.id }?.blocked == nil)
            #expect(try await server.api.send(.unblock, bob.user.id.uuidString, token: ann.token).status == 204)
        }
    }

    @Test("bad input: myself, an unknown or malformed id; each a clear error and nothing stored")
    func badInput() async throws {
        try await withTestServer { server in
            let ann = try await server.register("ann")
            let mine = try await server.api.send(.block, ann.user.id.uuidString, token: ann.token)
            #expect(mine.status == 400)
            #expect(try mine.decode(APIErrorBody.self).code == .invalidPeer)
            for id in [UUID().uuidString, "nobody"] {
                let unknown = try await server.api.send(.block, id, token: ann.token)
                #expect(unknown.status == 404)
                #expect(try unknown.decode(APIErrorBody.self).code == .unknownUser)
            }
            #expect(try await server.api.send(.blocks, token: ann.token).decode([UserProfile].self).isEmpty)
            #expect(try await server.api.send(.blocks).status == 401)
        }
    }
}
