import ChatClient
import ChatProtocol
import ChatServer
import ChatTestSupport
import Foundation
import Testing

/// `ChatAPI`'s calls for forwarding, contacts, marks of unread and pictures (PROTOCOL.md §6.4, §6.5, §7.5–7.7)
/// against a real server.
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

    @Test("pictures through ChatAPI: mine seen by a contact and fetched by its address; the group's; removed")
    func pictures() async throws {
        try await withTestServer { server in
            let ann = try await server.client(registering: "ann")
            let bob = try await server.client(registering: "bob")
            let annToken = try #require(await ann.session?.token)
            let bobToken = try #require(await bob.session?.token)
            let group = try await ann.api.createRoom(
                CreateRoomRequest(kind: "group", name: "Plans", members: ["bob"]), token: annToken)
            let image = Data(pngBytes(width: 16, height: 16))

            let mine = try #require(try await ann.api.setAvatar(image, token: annToken).avatarURL)
            #expect(try await bob.api.contacts(token: bobToken).first?.user.avatarURL == mine)
            #expect(try await bob.api.avatar(at: mine) == image)
            let groupPicture = try await ann.api.setRoomAvatar(image, room: group.id, token: annToken)
            #expect(
                try await bob.api.rooms(token: bobToken).first { $0.id == group.id }?.avatarURL
                    == groupPicture.avatarURL)

            #expect(try await ann.api.removeAvatar(token: annToken).avatarURL == nil)
            try await ann.api.removeRoomAvatar(room: group.id, token: annToken)
            await #expect(throws: ChatClientError.self) { try await bob.api.avatar(at: mine) }
            do {
                _ = try await bob.api.setRoomAvatar(image, room: group.id, token: bobToken)
                Issue.record("a member who is not a moderator set the group's picture")
            } catch ChatClientError.server(let status, let code, _) {
                #expect(status == 403 && code == .notAllowed)
            }
        }
    }
}
