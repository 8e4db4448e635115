import ChatCore
import ChatProtocol
import ChatServer
import ChatTestSupport
import Foundation
import NIOHTTP1
import Testing

/// Forwarding (PROTOCOL.md §7.6) on SQLite and PostgreSQL: a message I can read, sent again in another room with its
/// attachments by reference and its author named, once per `clientMsgID`.
@Suite("Forwarding a message to another chat, attachments by reference")
struct ForwardTests {
    @Test(
        "a forward copies the text and attachments (readable in the new room without a new upload), names the author, mentions nobody again, and is stored once"
    )
    func forward() async throws {
        try await withTestServer { server in
            let (ann, bob, dm, annSocket, bobSocket) = try await server.pair()
            let carol = try await server.register("carol")
            let (png, image) = try await server.sendImage(as: bob, on: bobSocket, in: dm.id, clientMsgID: "img")
            let withText = try await bobSocket.acked(
                .send(SendRequest(room: dm.id, clientMsgID: "t1", text: "@ann the plan is attached")))
            let group = try await server.api.send(
                .POST, "/rooms", json: CreateRoomRequest(kind: "group", name: "Trip", members: ["carol"]),
                token: ann.token
            ).decode(RoomSummary.self)
            let carolSocket = try await server.modernClient(carol)
            _ = try await carolSocket.next(.resumed, as: ResumedFrame.self)
            #expect(try await server.api.get("/attachments/\(image.id)", token: carol.token).status == 403)

            let imageSeq = try await server.api.send(.history, dm.id, token: ann.token).decode(HistoryPage.self)
                .messages.first { $0.attachments?.first?.id == image.id }?.seq
            let first = try await server.api.send(
                .forward, group.id, json: ForwardRequest(room: dm.id, seq: try #require(imageSeq), clientMsgID: "f1"),
                token: ann.token)
            #expect(first.status == 201)
            let forwarded = try await carolSocket.nextEvent(.message)
            #expect(forwarded.sender.id == ann.user.id && forwarded.forwardedFrom?.id == bob.user.id)
            #expect(forwarded.forwardedFrom?.name == "bob" && forwarded.attachments == [image])
            let fetched = try await server.api.get("/attachments/\(image.id)", token: carol.token)
            #expect(fetched.status == 200 && Array(fetched.body) == png)

            let retry = try await server.api.send(
                .forward, group.id, json: ForwardRequest(room: dm.id, seq: imageSeq!, clientMsgID: "f1"),
                token: ann.token)
            #expect(retry.status == 200)
            #expect(try retry.decode(AckFrame.self).seq == first.decode(AckFrame.self).seq)

            let text = try await server.api.send(
                .forward, group.id, json: ForwardRequest(room: dm.id, seq: withText.seq, clientMsgID: "f2"),
                token: ann.token)
            #expect(text.status == 201)
            let copy = try await carolSocket.nextEvent(.message)
            #expect(copy.text == "@ann the plan is attached" && copy.mentions == nil, "a forward mentions nobody again")

            // Forwarding the forward keeps the first author.
            let again = try await server.api.send(
                .forward, dm.id, json: ForwardRequest(room: group.id, seq: copy.seq, clientMsgID: "f3"),
                token: ann.token)
            #expect(again.status == 201)
            let page = try await server.api.send(.history, dm.id, token: bob.token).decode(HistoryPage.self)
            #expect(page.messages.last?.forwardedFrom?.id == bob.user.id)
            _ = annSocket
        }
    }

    @Test("forwarding from a room I cannot read, a missing or deleted message, or into a room I am not in is refused")
    func refusals() async throws {
        try await withTestServer { server in
            let (ann, bob, dm, _, bobSocket) = try await server.pair()
            let carol = try await server.register("carol")
            let said = try await bobSocket.acked(.send(SendRequest(room: dm.id, clientMsgID: "s1", text: "private")))
            let carolsRoom = try await server.api.send(
                .POST, "/rooms", json: CreateRoomRequest(kind: "group", name: "Mine"), token: carol.token
            ).decode(RoomSummary.self)
            _ = try await bobSocket.acked(.delete(DeleteRequest(room: dm.id, clientMsgID: "d1", target: said.seq)))
            let kept = try await bobSocket.acked(.send(SendRequest(room: dm.id, clientMsgID: "s2", text: "kept")))
            let cases: [(String, ForwardRequest, AuthSession, Int, ErrorCode)] = [
                (carolsRoom.id, ForwardRequest(room: dm.id, seq: kept.seq, clientMsgID: "c1"), carol, 403, .forbidden),
                (dm.id, ForwardRequest(room: dm.id, seq: said.seq, clientMsgID: "c2"), ann, 400, .badTarget),
                (dm.id, ForwardRequest(room: dm.id, seq: 999, clientMsgID: "c3"), ann, 400, .badTarget),
                (carolsRoom.id, ForwardRequest(room: dm.id, seq: kept.seq, clientMsgID: "c4"), ann, 403, .forbidden),
                (dm.id, ForwardRequest(room: dm.id, seq: kept.seq, clientMsgID: ""), ann, 400, .invalidBody),
            ]
            for (target, request, account, status, code) in cases {
                let reply = try await server.api.send(.forward, target, json: request, token: account.token)
                #expect(reply.status == status, "\(request)")
                #expect(try reply.decode(APIErrorBody.self).code == code, "\(request)")
            }
            let page = try await server.api.send(.history, carolsRoom.id, token: carol.token).decode(HistoryPage.self)
            #expect(!page.messages.contains { $0.text == "kept" })
        }
    }
}
