import ChatCore
import ChatProtocol
import ChatServer
import ChatTestSupport
import Foundation
import NIOHTTP1
import Testing

/// Integrations on two nodes of one PostgreSQL database (PROTOCOL.md §9.12, §9.15): a send over HTTP is stored once
/// whichever node a retry reaches, a link is fetched once whichever node its messages reach, and a pin (§7.8) reaches
/// every node.
@Suite("Two nodes: HTTP sends, link previews and pins")
struct TwoNodeIntegrationTests {
    @Test("a send over HTTP retried through the other node is stored once and answered with the original")
    func restRetryAcrossNodes() async throws {
        try await TwoNodeTests().withTwoNodes { nodeA, nodeB in
            let ann = try await nodeA.register("ann")
            let first = try await nodeA.api.send(
                .postMessage, "lobby", json: PostMessageRequest(text: "deploy started", clientMsgID: "deploy-1"),
                token: ann.token)
            #expect(first.status == 201)
            let retry = try await nodeB.api.send(
                .postMessage, "lobby", json: PostMessageRequest(text: "deploy started", clientMsgID: "deploy-1"),
                token: ann.token)
            #expect(retry.status == 200)
            #expect(try retry.decode(AckFrame.self).seq == first.decode(AckFrame.self).seq)
            let page = try await nodeB.api.send(.history, "lobby", token: ann.token).decode(HistoryPage.self)
            #expect(page.messages.filter { $0.text == "deploy started" }.count == 1)
        }
    }

    @Test("a link sent through node A and again through node B is fetched once; both messages show its preview")
    func onePreviewFetchAcrossNodes() async throws {
        let site = try await PushReceiver.start()
        try await TwoNodeTests().withTwoNodes(on: nil, LinkPreviewTests.previewing) { nodeA, nodeB in
            let (_, _, dm, annSocket, bobSocket) = try await nodeA.pair(bobConnectedTo: nodeB)
            site.script([.text(LinkPreviewTests.article, contentType: "text/html"), .status(404)])
            let link = site.endpoint("shared")
            let onA = try await annSocket.acked(.send(SendRequest(room: dm.id, clientMsgID: "a1", text: link)))
            let first = try await LinkPreviewTests.preview(of: onA.seq, on: bobSocket)
            let onB = try await bobSocket.acked(
                .send(SendRequest(room: dm.id, clientMsgID: "b1", text: "same \(link)")))
            let second = try await LinkPreviewTests.preview(of: onB.seq, on: annSocket)
            #expect(first.preview != nil && second.preview == first.preview)
            #expect(site.requests.drain().map(\.path) == ["/push/shared", "/images/cover.png"])
        }
        await site.stop()
    }

    @Test("a message pinned through node A reaches a member's socket on node B, and B lists it")
    func pinAcrossNodes() async throws {
        try await TwoNodeTests().withTwoNodes { nodeA, nodeB in
            let (ann, bob, dm, annSocket, bobSocket) = try await nodeA.pair(bobConnectedTo: nodeB)
            let said = try await annSocket.acked(.send(SendRequest(room: dm.id, clientMsgID: "a1", text: "the code")))
            _ = try await bobSocket.nextEvent(.message)
            #expect(try await nodeA.api.send(.pinMessage, dm.id, "\(said.seq)", token: ann.token).status == 204)
            let pin = try await bobSocket.nextEvent(.pin)
            #expect(pin.target == said.seq && pin.added == true && pin.sender.name == "ann")
            let listed = try await nodeB.api.send(.pinnedMessages, dm.id, token: bob.token)
                .decode(PinnedMessagesPayload.self)
            #expect(listed.messages.map(\.text) == ["the code"])
        }
    }
}
