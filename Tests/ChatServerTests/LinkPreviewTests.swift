import ChatCore
import ChatProtocol
import ChatServer
import ChatTestSupport
import Foundation
import NIOHTTP1
import Testing

/// Link previews (PROTOCOL.md §9.15) from real pages on a loopback web server, on SQLite and PostgreSQL: the page is
/// fetched once by the server, described in a `preview` event every client, history and resume see, its image kept
/// as an attachment; the sender may remove it; what may not be fetched is not.
@Suite("Link previews: a link's page under the message, fetched once, safely")
struct LinkPreviewTests {
    /// Previews on (the test server's default is off: no test reaches the internet), loopback allowed.
    static func previewing(_ configuration: inout ServerConfiguration) {
        configuration.linkPreviews = true
        OutgoingWebhookTests.allowLoopback(&configuration)
    }

    static let article = """
        <!doctype html><html><head>
        <meta charset="utf-8"><title>Ignored when OpenGraph says</title>
        <meta property="og:title" content="Release 2.0 &amp; what&#39;s new">
        <meta property='og:description' content="Faster  sends,
          fewer bytes.">
        <meta property="og:site_name" content="Example News">
        <meta property="og:image" content="/images/cover.png">
        </head><body><p>Long article…</p></body></html>
        """

    /// The frames a socket receives until the `preview` event of message `seq`.
    static func preview(of seq: Int64, on socket: WebSocketTestClient) async throws -> MessageFrame {
        while true {
            let event = try await socket.nextEvent(.preview)
            if event.target == seq { return event }
        }
    }

    @Test(
        "a link's page becomes a preview event of the room with its image as an attachment; history shows it; the same link again is served from the cache"
    )
    func previewAndCache() async throws {
        let site = try await PushReceiver.start()
        try await withTestServer(Self.previewing) { server in
            let (ann, bob, dm, annSocket, bobSocket) = try await server.pair()
            let cover = pngBytes(width: 64, height: 32)
            site.script([
                .text(Self.article, contentType: "text/html; charset=utf-8"), .bytes(cover, contentType: "image/png"),
            ])
            let link = site.endpoint("article")
            let ack = try await annSocket.acked(
                .send(SendRequest(room: dm.id, clientMsgID: "l1", text: "read this: \(link).")))
            let event = try await Self.preview(of: ack.seq, on: bobSocket)
            let preview = try #require(event.preview)
            #expect(event.sender.id == ann.user.id && event.seq > ack.seq)
            #expect(preview.url == link)
            #expect(preview.title == "Release 2.0 & what's new")
            #expect(preview.description == "Faster sends, fewer bytes.")
            #expect(preview.siteName == "Example News")
            let image = try #require(preview.image)
            #expect(image.contentType == "image/png" && image.width == 64 && image.height == 32)
            let fetched = try await server.api.get("/attachments/\(image.id)", token: bob.token)
            #expect(fetched.status == 200 && Array(fetched.body) == cover)
            #expect(try await Self.preview(of: ack.seq, on: annSocket).preview == preview)

            let requests = site.requests.drain()
            #expect(requests.map(\.path) == ["/push/article", "/images/cover.png"])
            #expect(requests.first?.headers.first(name: "User-Agent")?.contains("link preview") == true)

            let page = try await server.api.send(.GET, "/rooms/\(dm.id)/messages", token: bob.token)
                .decode(HistoryPage.self)
            #expect(page.messages.first { $0.seq == ack.seq }?.preview == preview)

            // Another room, the same link: the cache answers, the site sees nothing.
            let group = try await server.api.send(
                .POST, "/rooms", json: CreateRoomRequest(kind: "group", name: "News", members: ["bob"]),
                token: ann.token
            ).decode(RoomSummary.self)
            let again = try await server.api.send(
                .POST, "/rooms/\(group.id)/messages", json: PostMessageRequest(text: link, clientMsgID: "l2"),
                token: bob.token
            ).decode(AckFrame.self)
            let cached = try await Self.preview(of: again.seq, on: annSocket)
            #expect(cached.preview == preview && cached.room == group.id)
            #expect(site.requests.drain().isEmpty, "the second use of the link fetched nothing")
        }
        await site.stop()
    }

    @Test(
        "the sender removes the preview of their message, for everyone; nobody else may; a message without one has none to remove"
    )
    func removal() async throws {
        let site = try await PushReceiver.start()
        try await withTestServer(Self.previewing) { server in
            let (ann, bob, dm, annSocket, bobSocket) = try await server.pair()
            site.script([.text(Self.article, contentType: "text/html"), .status(404)])
            let ack = try await annSocket.acked(
                .send(SendRequest(room: dm.id, clientMsgID: "r1", text: site.endpoint("post"))))
            let shown = try await Self.preview(of: ack.seq, on: bobSocket)
            #expect(
                shown.preview?.title != nil && shown.preview?.image == nil, "an image that is not found is left out")
            let route = "/rooms/\(dm.id)/messages/\(ack.seq)/preview"

            let notYours = try await server.api.send(.DELETE, route, token: bob.token)
            #expect(notYours.status == 403)
            #expect(try notYours.decode(APIErrorBody.self).code == .notYours)
            let stranger = try await server.register("carol")
            #expect(
                try await server.api.send(.DELETE, route, token: stranger.token).decode(APIErrorBody.self).code
                    == .forbidden)

            #expect(try await server.api.send(.DELETE, route, token: ann.token).status == 204)
            let removed = try await Self.preview(of: ack.seq, on: bobSocket)
            #expect(removed.preview == nil && removed.sender.id == ann.user.id)
            let twice = try await server.api.send(.DELETE, route, token: ann.token)
            #expect(twice.status == 400)
            #expect(try twice.decode(APIErrorBody.self).code == .badTarget)
            #expect(
                try await server.api.send(.DELETE, "/rooms/\(dm.id)/messages/x/preview", token: ann.token).status == 400
            )

            let page = try await server.api.send(.GET, "/rooms/\(dm.id)/messages", token: ann.token)
                .decode(HistoryPage.self)
            #expect(page.messages.first { $0.seq == ack.seq }.map { $0.preview == nil } == true)
            let resumed = try await server.modernClient(bob, resume: [dm.id: ack.seq])
            var replay: [String] = []
            while !(replay.last?.contains(#""room":"\#(dm.id)""#) ?? false) {
                replay += try await resumed.frames(through: .resumed)
            }
            let previews = frames(replay, ofType: .message, as: MessageFrame.self).filter { $0.eventKind == .preview }
            #expect(previews.count == 2 && previews.last?.preview == nil, "a resume replays both preview events")
            _ = annSocket
        }
        await site.stop()
    }

    @Test(
        "no preview for a page that is not HTML, a link the guard refuses, or with --link-previews false; the message itself is never held up"
    )
    func nothingToShow() async throws {
        let site = try await PushReceiver.start()
        try await withTestServer(Self.previewing) { server in
            let (_, _, dm, annSocket, bobSocket) = try await server.pair()
            site.script([
                .text("just text", contentType: "text/plain"), .text(Self.article, contentType: "text/html"),
                .status(404),
            ])
            let plain = try await annSocket.acked(
                .send(SendRequest(room: dm.id, clientMsgID: "n1", text: site.endpoint("plain"))))
            #expect(try await bobSocket.nextEvent(.message).seq == plain.seq, "the message arrives before any preview")
            let html = try await annSocket.acked(
                .send(SendRequest(room: dm.id, clientMsgID: "n2", text: site.endpoint("html"))))
            // Previews are made in order: once the second message's arrives, the first had none.
            let event = try await bobSocket.next(.message, as: MessageFrame.self)
            let next = event.eventKind == .message ? try await bobSocket.next(.message, as: MessageFrame.self) : event
            #expect(next.eventKind == .preview && next.target == html.seq)
        }
        // Without the allowlist, loopback is refused: no connection, the refusal counted.
        try await withTestServer({ $0.linkPreviews = true }) { server in
            let (_, _, dm, annSocket, _) = try await server.pair()
            let before = site.connections
            _ = try await annSocket.acked(.send(SendRequest(room: dm.id, clientMsgID: "g1", text: site.endpoint("x"))))
            try await eventually("the refusal is counted") {
                try await MetricsScrape.take(server).total("swiftchat_outbound_refused_total", #"reason="address""#)
                    ?? 0 >= 1
            }
            #expect(site.connections == before)
        }
        try await withTestServer(OutgoingWebhookTests.allowLoopback) { server in
            let (_, _, dm, annSocket, bobSocket) = try await server.pair()
            let before = site.connections
            let ack = try await annSocket.acked(
                .send(SendRequest(room: dm.id, clientMsgID: "o1", text: site.endpoint("off"))))
            _ = try await annSocket.acked(.send(SendRequest(room: dm.id, clientMsgID: "o2", text: "and then")))
            #expect(try await bobSocket.nextEvent(.message).seq == ack.seq)
            #expect(try await bobSocket.nextEvent(.message).text == "and then")
            #expect(site.connections == before)
        }
        await site.stop()
    }
}
