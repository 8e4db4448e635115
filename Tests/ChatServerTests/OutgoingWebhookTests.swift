import ChatCore
import ChatProtocol
import ChatServer
import ChatTestSupport
import Crypto
import Foundation
import NIOHTTP1
import Testing

/// A bot's outgoing webhook (PROTOCOL.md §9.13) against a real receiver on loopback, on SQLite and PostgreSQL: what
/// is meant for the bot is POSTed there, signed, and the answer becomes the bot's reply.
@Suite("Outgoing webhooks: a bot that answers over HTTP")
struct OutgoingWebhookTests {
    static func allowLoopback(_ configuration: inout ServerConfiguration) {
        configuration.outboundAllow = [AddressRange("127.0.0.0/8")!]
    }

    /// Ann's bot `ci-bot`, its webhook pointed at `receiver`; the key it signs with.
    static func bot(of ann: AuthSession, on server: TestServer, receiver: PushReceiver) async throws
        -> (BotTokenPayload, secret: String)
    {
        let bot = try await server.api.send(.createBot, json: BotCreateRequest(username: "ci-bot"), token: ann.token)
            .decode(BotTokenPayload.self)
        let set = try await server.api.send(
            .updateBot, bot.id.uuidString, json: BotWebhookRequest(webhookURL: receiver.endpoint("ci")),
            token: ann.token)
        #expect(set.status == 200)
        let payload = try set.decode(BotWebhookPayload.self)
        #expect(payload.webhookURL == receiver.endpoint("ci"))
        return (bot, try #require(payload.webhookSecret))
    }

    @Test(
        "a direct message and a mention reach the bot's webhook, signed; a text or JSON answer is the bot's reply; other messages send nothing"
    )
    func deliveries() async throws {
        let receiver = try await PushReceiver.start()
        try await withTestServer(Self.allowLoopback) { server in
            let ann = try await server.register("ann")
            let bob = try await server.register("bob")
            let (bot, secret) = try await Self.bot(of: ann, on: server, receiver: receiver)
            let dm = try await server.api.send(
                .POST, "/dms", json: UsernameRequest(username: "ci-bot"), token: ann.token
            )
            .decode(RoomSummary.self)
            let annSocket = try await server.modernClient(ann)
            _ = try await annSocket.next(.resumed, as: ResumedFrame.self)

            receiver.script([.text("pong")])
            _ = try await annSocket.acked(.send(SendRequest(room: dm.id, clientMsgID: "d1", text: "ping")))
            let request = try #require(await receiver.requests.next(timeout: .seconds(10)))
            let event = try JSONDecoder().decode(OutgoingWebhookEvent.self, from: request.body)
            #expect(event.message.text == "ping" && event.message.sender.id == ann.user.id)
            #expect(event.room.id == dm.id && event.room.kind == "direct")
            let expected = HMAC<SHA256>.authenticationCode(
                for: request.body, using: SymmetricKey(data: Data(secret.utf8)))
            #expect(
                request.headers.first(name: "X-SwiftChat-Signature")
                    == "sha256=" + expected.map { String(format: "%02x", $0) }.joined())
            var reply = try await annSocket.nextEvent(.message)
            while reply.sender.id != bot.id { reply = try await annSocket.nextEvent(.message) }
            #expect(reply.text == "pong" && reply.room == dm.id)

            // The event's replyURL takes later replies in that room, without the bot's token, once per clientMsgID.
            let replyURL = try #require(event.replyURL)
            let path = try #require(replyURL.range(of: "/api/v1")).upperBound
            let later = try await server.api.send(
                .POST, String(replyURL[path...]), bytes: Array("done, 3 passed".utf8),
                contentType: "text/plain; charset=utf-8")
            #expect(later.status == 201)
            var followUp = try await annSocket.nextEvent(.message)
            while followUp.sender.id != bot.id { followUp = try await annSocket.nextEvent(.message) }
            #expect(followUp.text == "done, 3 passed" && followUp.room == dm.id)
            let once = BotReplyRequest(text: "once", clientMsgID: "r1")
            #expect(try await server.api.send(.POST, String(replyURL[path...]), json: once, token: nil).status == 201)
            #expect(try await server.api.send(.POST, String(replyURL[path...]), json: once, token: nil).status == 200)
            var tampered = String(replyURL[path...])
            tampered.replaceSubrange(
                tampered.index(before: tampered.endIndex)..., with: tampered.hasSuffix("0") ? "1" : "0")
            let refused = try await server.api.send(.POST, tampered, json: once, token: nil)
            #expect(refused.status == 404)
            #expect(try refused.decode(APIErrorBody.self).code == .notFound)
            #expect(try await server.api.send(.POST, "/bots/replies/nonsense", json: once, token: nil).status == 404)

            let group = try await server.api.send(
                .POST, "/rooms", json: CreateRoomRequest(kind: "group", name: "Ops", members: ["bob", "ci-bot"]),
                token: ann.token
            ).decode(RoomSummary.self)
            let bobSocket = try await server.modernClient(bob)
            _ = try await bobSocket.next(.resumed, as: ResumedFrame.self)
            receiver.script([.text(#"{"text":"all green"}"#, contentType: "application/json")])
            _ = try await bobSocket.acked(.send(SendRequest(room: group.id, clientMsgID: "g1", text: "not for bots")))
            _ = try await bobSocket.acked(
                .send(SendRequest(room: group.id, clientMsgID: "g2", text: "@ci-bot status?")))
            let mention = try #require(await receiver.requests.next(timeout: .seconds(10)))
            #expect(
                try JSONDecoder().decode(OutgoingWebhookEvent.self, from: mention.body).message.text
                    == "@ci-bot status?")
            var answer = try await bobSocket.nextEvent(.message)
            while answer.sender.id != bot.id { answer = try await bobSocket.nextEvent(.message) }
            #expect(answer.text == "all green")

            try await eventually("both deliveries are recorded") {
                try await server.api.send(.botDeliveries, bot.id.uuidString, token: ann.token)
                    .decode(BotDeliveryList.self).deliveries.count == 2
            }
            let recorded = try await server.api.send(.botDeliveries, bot.id.uuidString, token: ann.token)
                .decode(BotDeliveryList.self).deliveries
            #expect(recorded.map(\.outcome) == ["replied", "replied"] && recorded.first?.room == group.id)
            #expect(receiver.requests.drain().isEmpty, "the message without a mention was sent nowhere")
        }
        await receiver.stop()
    }

    @Test("a failing webhook is recorded; a URL the server may not reach is refused; without a URL nothing is sent")
    func failuresAndRefusals() async throws {
        let receiver = try await PushReceiver.start()
        try await withTestServer(Self.allowLoopback) { server in
            let ann = try await server.register("ann")
            let bob = try await server.register("bob")
            let (bot, _) = try await Self.bot(of: ann, on: server, receiver: receiver)
            let long = "https://bots.example.org/" + String(repeating: "a", count: 1024)
            for url in ["http://10.0.0.1/hook", "https://169.254.169.254/", "ftp://example.org/", "not a url", long] {
                let reply = try await server.api.send(
                    .updateBot, bot.id.uuidString, json: BotWebhookRequest(webhookURL: url), token: ann.token)
                #expect(reply.status == 400, "\(url.prefix(40))")
                #expect(try reply.decode(APIErrorBody.self).code == .invalidEndpoint)
            }
            let bobs = try await server.api.send(
                .updateBot, bot.id.uuidString, json: BotWebhookRequest(webhookURL: nil), token: bob.token)
            #expect(bobs.status == 404)

            let dm = try await server.api.send(
                .POST, "/dms", json: UsernameRequest(username: "ci-bot"), token: ann.token
            )
            .decode(RoomSummary.self)
            let socket = try await server.modernClient(ann)
            _ = try await socket.next(.resumed, as: ResumedFrame.self)
            receiver.script([.status(500)])
            _ = try await socket.acked(.send(SendRequest(room: dm.id, clientMsgID: "d1", text: "are you there?")))
            _ = try #require(await receiver.requests.next(timeout: .seconds(10)))
            try await eventually("the failure is recorded") {
                try await server.api.send(.botDeliveries, bot.id.uuidString, token: ann.token)
                    .decode(BotDeliveryList.self).deliveries.first?.outcome == "failed: status 500"
            }

            // An answer of 5 MB is read no further than 64 KiB, and a reply that long is not posted.
            receiver.script([.text(String(repeating: "a", count: 5 << 20))])
            _ = try await socket.acked(.send(SendRequest(room: dm.id, clientMsgID: "d3", text: "talk a lot")))
            _ = try #require(await receiver.requests.next(timeout: .seconds(10)))
            try await eventually("the long answer is recorded") {
                try await server.api.send(.botDeliveries, bot.id.uuidString, token: ann.token)
                    .decode(BotDeliveryList.self).deliveries.first?.outcome.hasPrefix("failed: the reply is over")
                    == true
            }
            // A receiver that never answers is given up after 7 s; the next message is delivered.
            receiver.script([.hang, .text("back")])
            _ = try await socket.acked(.send(SendRequest(room: dm.id, clientMsgID: "d4", text: "hello?")))
            _ = try await socket.acked(.send(SendRequest(room: dm.id, clientMsgID: "d5", text: "still there?")))
            try await eventually("the hang is recorded as a failure and the next one replied") {
                let outcomes = try await server.api.send(.botDeliveries, bot.id.uuidString, token: ann.token)
                    .decode(BotDeliveryList.self).deliveries.map(\.outcome)
                return outcomes.count >= 2 && outcomes[0] == "replied" && outcomes[1].hasPrefix("failed")
            }
            #expect(receiver.requests.drain().count == 2)

            let removed = try await server.api.send(
                .updateBot, bot.id.uuidString, json: BotWebhookRequest(webhookURL: nil), token: ann.token)
            #expect(try removed.decode(BotWebhookPayload.self).webhookURL == nil)
            _ = try await socket.acked(.send(SendRequest(room: dm.id, clientMsgID: "d2", text: "hello?")))
            #expect(await receiver.requests.next(timeout: .seconds(2)) == nil)
        }
        await receiver.stop()
    }
}
