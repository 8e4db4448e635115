import ChatClient
import ChatProtocol
import ChatServer
import ChatTestSupport
import Foundation
import Testing

/// `ChatAPI`'s calls for forwarding, contacts and marks of unread (PROTOCOL.md §6.4, §7.5, §7.6) against a real
/// server.
@Suite("ChatAPI: forwarding, contacts, marked unread")
struct ChatAPIIssue34Tests {
    @Test(
        "a forward through ChatAPI names the author; contacts come from a shared group and by hand; a mark of unread shows in the summary"
    )
    func forwardContactsAndUnread() async throws {
        try await withTestServer { server in
            let ann = try await server.client(registering: "ann")
            let bob = try await server.client(registering: "bob")
            _ = try await server.client(registering: "carol")
            let annToken = try #require(await ann.session?.token)
            let bobToken = try #require(await bob.session?.token)
            let group = try await ann.api.createRoom(
                CreateRoomRequest(kind: "group", name: "Plans", members: ["bob"]), token: annToken)
            let dm = try await ann.api.directRoom(with: "carol", token: annToken)
            let said = try await bob.api.postMessage(
                PostMessageRequest(text: "meet at 8", clientMsgID: "m1"), to: group.id, token: bobToken)

            let ack = try await ann.api.forward(said.seq, of: group.id, to: dm.id, clientMsgID: "f1", token: annToken)
            let page = try await ann.api.history(room: dm.id, token: annToken)
            let copy = try #require(page.messages.first { $0.seq == ack.seq })
            #expect(copy.text == "meet at 8" && copy.forwardedFrom?.name == "bob")

            #expect(try await ann.api.contacts(token: annToken).map(\.user.username) == ["bob", "carol"])
            _ = try await bob.api.addContact("carol", token: bobToken)
            let bobs = try await bob.api.contacts(token: bobToken)
            #expect(bobs.map(\.user.username) == ["ann", "carol"] && bobs.last?.added == true)
            try await bob.api.removeContact(try #require(bobs.last?.user.id), token: bobToken)
            #expect(try await bob.api.contacts(token: bobToken).map(\.user.username) == ["ann"])

            try await ann.api.setMarkedUnread(true, room: group.id, token: annToken)
            #expect(try await ann.api.rooms(token: annToken).first { $0.id == group.id }?.markedUnread == true)
            try await ann.api.setMarkedUnread(false, room: group.id, token: annToken)
            #expect(try await ann.api.rooms(token: annToken).first { $0.id == group.id }?.markedUnread == nil)
        }
    }
}
