import ChatCore
import ChatProtocol
import ChatServer
import ChatTestSupport
import Crypto
import Foundation
import NIOHTTP1
import Testing

/// Web Push as messages arrive (PROTOCOL.md §9.11), to a real push receiver on loopback, on SQLite and PostgreSQL.
@Suite("Web Push notifications")
struct PushNotificationTests {
    /// A browser of an account, subscribed at the receiver's endpoint `name`.
    struct Browser {
        let key = P256.KeyAgreement.PrivateKey()
        let auth = Data((0..<16).map { _ in UInt8.random(in: 0...255) })
        let name: String

        func subscribe(_ session: AuthSession, on server: TestServer, receiver: PushReceiver) async throws {
            let reply = try await server.api.send(
                .subscribePush,
                json: PushSubscriptionRequest(
                    endpoint: receiver.endpoint(self.name),
                    keys: .init(p256dh: self.key.publicKey.x963Representation.base64URL, auth: self.auth.base64URL)),
                token: session.token)
            #expect(reply.status == 201)
        }

        struct Notification: Decodable {
            let room: String
            let seq: Int64
            let title: String
            let body: String
            let url: String
        }

        func read(_ request: PushReceiver.Request) throws -> Notification {
            try JSONDecoder().decode(
                Notification.self,
                from: WebPushEncryption.decrypt(request.body, privateKey: self.key, authSecret: self.auth))
        }
    }

    @Test(
        "a member who is away gets each message their level asks for, once, with its text; not edits, not what their level leaves out"
    )
    func levels() async throws {
        let receiver = try await PushReceiver.start()
        try await withTestServer({ $0.outboundAllow = [AddressRange("127.0.0.0/8")!] }) { server in
            let ann = try await server.register("ann")
            let bob = try await server.register("bob")
            let group = try await server.api.send(
                .createRoom, json: CreateRoomRequest(kind: "group", name: "Tea", members: ["bob"]), token: ann.token
            ).decode(RoomSummary.self)
            let bobs = Browser(name: "bob")
            try await bobs.subscribe(bob, on: server, receiver: receiver)
            let annSocket = try await server.modernClient(ann)
            _ = try await annSocket.next(.resumed, as: ResumedFrame.self)

            _ = try await server.api.send(
                .notifications, group.id, json: NotificationLevelRequest(level: "none"), token: bob.token)
            _ = try await annSocket.acked(.send(SendRequest(room: group.id, clientMsgID: "a1", text: "quiet")))
            _ = try await server.api.send(
                .notifications, group.id, json: NotificationLevelRequest(level: "all"), token: bob.token)
            let loud = try await annSocket.acked(.send(SendRequest(room: group.id, clientMsgID: "a2", text: "loud")))
            let first = try #require(await receiver.requests.next(timeout: .seconds(10)))
            let notification = try bobs.read(first)
            #expect(notification.body == "loud" && notification.title == "ann · Tea" && notification.seq == loud.seq)
            #expect(notification.room == group.id && notification.url.hasSuffix("/#/chat/\(group.id)/\(loud.seq)"))
            #expect(first.headers.first(name: "Urgency") == "normal" && first.headers.first(name: "Topic")?.count == 32)

            // An edit is no new message.
            _ = try await annSocket.acked(
                .edit(EditRequest(room: group.id, clientMsgID: "a3", target: loud.seq, text: "louder")))
            _ = try await annSocket.acked(.send(SendRequest(room: group.id, clientMsgID: "a4", text: "after")))
            #expect(try bobs.read(try #require(await receiver.requests.next(timeout: .seconds(10)))).body == "after")

            // A channel notifies of mentions only, until bob says otherwise.
            let channel = try await server.api.send(
                .createRoom, json: CreateRoomRequest(kind: "channel", name: "Town", members: ["bob"]), token: ann.token
            ).decode(RoomSummary.self)
            _ = try await annSocket.next(.joined, as: JoinedFrame.self)
            _ = try await annSocket.acked(.send(SendRequest(room: channel.id, clientMsgID: "c1", text: "hello all")))
            _ = try await annSocket.acked(.send(SendRequest(room: channel.id, clientMsgID: "c2", text: "@bob look")))
            let mention = try #require(await receiver.requests.next(timeout: .seconds(10)))
            #expect(try bobs.read(mention).body == "@bob look")
            #expect(mention.headers.first(name: "Urgency") == "high")
        }
        await receiver.stop()
    }

    @Test("a member with a live connection gets nothing; the one away does")
    func onlyThoseAway() async throws {
        let receiver = try await PushReceiver.start()
        try await withTestServer({ $0.outboundAllow = [AddressRange("127.0.0.0/8")!] }) { server in
            let ann = try await server.register("ann")
            let bob = try await server.register("bob")
            let carol = try await server.register("carol")
            let group = try await server.api.send(
                .createRoom, json: CreateRoomRequest(kind: "group", name: "Tea", members: ["bob", "carol"]),
                token: ann.token
            ).decode(RoomSummary.self)
            try await Browser(name: "bob").subscribe(bob, on: server, receiver: receiver)
            try await Browser(name: "carol").subscribe(carol, on: server, receiver: receiver)
            let carolSocket = try await server.modernClient(carol)
            _ = try await carolSocket.next(.resumed, as: ResumedFrame.self)
            let annSocket = try await server.modernClient(ann)
            _ = try await annSocket.next(.resumed, as: ResumedFrame.self)
            _ = try await annSocket.acked(.send(SendRequest(room: group.id, clientMsgID: "a1", text: "one")))
            _ = try await annSocket.acked(.send(SendRequest(room: group.id, clientMsgID: "a2", text: "two")))
            for _ in 0..<2 {
                #expect(try #require(await receiver.requests.next(timeout: .seconds(10))).path == "/push/bob")
            }
            // Nothing for carol, who is here (her pushes would have been sent with bob's).
            #expect(await receiver.requests.next(timeout: .seconds(1)) == nil)
            _ = try await carolSocket.nextEvent(.message)
        }
        await receiver.stop()
    }
}
