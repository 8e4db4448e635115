import ChatProtocol
import ChatTestSupport
import Foundation
import NIOHTTP1
import Testing

@Suite("Sending over HTTP: POST /rooms/{id}/messages (PROTOCOL.md §9.12)")
struct PostMessageTests {
    @Test("a send is acknowledged with 201 and reaches the room's sockets; a retry is 200 with the original seq")
    func exactlyOnce() async throws {
        try await withTestServer { server in
            let (ann, _, dm, _, bobSocket) = try await server.pair()
            let sent = try await server.api.send(
                .POST, "/rooms/\(dm.id)/messages",
                json: PostMessageRequest(text: "deploy done @bob", clientMsgID: "c1"),
                token: ann.token)
            #expect(sent.status == 201)
            let ack = try sent.decode(AckFrame.self)
            #expect(ack.clientMsgID == "c1" && ack.room == dm.id)
            let frame = try await bobSocket.nextEvent(.message)
            #expect(frame.event.seq == ack.seq && frame.event.text == "deploy done @bob")
            #expect(frame.event.mentions?.isEmpty == false)
            let retry = try await server.api.send(
                .POST, "/rooms/\(dm.id)/messages",
                json: PostMessageRequest(text: "deploy done @bob", clientMsgID: "c1"),
                token: ann.token)
            #expect(retry.status == 200)
            #expect(try retry.decode(AckFrame.self).seq == ack.seq)
            let page = try await server.api.send(.GET, "/rooms/\(dm.id)/messages", token: ann.token).decode(
                HistoryPage.self)
            #expect(page.messages.filter { $0.text == "deploy done @bob" }.count == 1)
        }
    }

    @Test("bad input is refused with its code and stores nothing; a room I am not in is 403")
    func refusals() async throws {
        try await withTestServer { server in
            let (ann, _, dm, _, _) = try await server.pair()
            let carol = try await server.register("carol")
            func post(_ body: PostMessageRequest, to room: String, token: String) async throws -> APIClient.Reply {
                try await server.api.send(.POST, "/rooms/\(room)/messages", json: body, token: token)
            }
            let cases: [(PostMessageRequest, HTTPResponseStatus, ErrorCode)] = [
                (PostMessageRequest(text: "  ", clientMsgID: "e1"), .badRequest, .emptyMessage),
                (PostMessageRequest(text: "x", clientMsgID: ""), .badRequest, .invalidBody),
                (
                    PostMessageRequest(text: "x", clientMsgID: String(repeating: "c", count: 65)), .badRequest,
                    .invalidBody
                ),
                (
                    PostMessageRequest(text: String(repeating: "a", count: 5000), clientMsgID: "e2"), .payloadTooLarge,
                    .tooLong
                ),
                (PostMessageRequest(text: "x", clientMsgID: "e3", replyTo: 999), .badRequest, .badTarget),
            ]
            for (body, status, code) in cases {
                let reply = try await post(body, to: dm.id, token: ann.token)
                #expect(reply.status == Int(status.code), "\(body.clientMsgID)")
                #expect(try reply.decode(APIErrorBody.self).code == code)
            }
            #expect(
                try await post(PostMessageRequest(text: "hi", clientMsgID: "x"), to: dm.id, token: carol.token).status
                    == 403)
            let malformed = try await server.api.send(
                .POST, "/rooms/\(dm.id)/messages", bytes: Array("{\"text\":1}".utf8), contentType: "application/json",
                token: ann.token)
            #expect(malformed.status == 400)
            #expect(try await server.api.send(.POST, "/rooms/\(dm.id)/messages").status == 401)
            let page = try await server.api.send(.GET, "/rooms/\(dm.id)/messages", token: ann.token).decode(
                HistoryPage.self)
            #expect(page.messages.allSatisfy { $0.kind != .known(.message) })
        }
    }
}
