import ChatClient
import ChatProtocol
import ChatServer
import ChatTestSupport
import Foundation
import Testing

@Suite("The tutorial clients against the real server (PROTOCOL.md §1, §2, §4)")
struct TutorialClientTests {
    @Test("a /chat client and a TCP client talk in the lobby")
    func lobbyAcrossTransports() async throws {
        try await withTestServer { server in
            // setup
            let web = try await LobbyChatClient.connect(to: server.webSocketURL("/chat"), user: "Ann")
            let tcp = try await LineChatClient.connect(host: server.host, port: server.tcpPort, name: "gregg")
            var tcpEvents = tcp.events.makeAsyncIterator()
            #expect(await tcpEvents.next() == .joined("gregg"))
            // act
            try await web.send("hello from the web")
            try await tcp.send("hello\nfrom tcp")
            // validate: each side sees both messages (in either order: two senders race)
            var webMessages = web.events.makeAsyncIterator()
            var texts: Set<String> = []
            let expected: Set = ["Ann: hello from the web", "gregg: hello from tcp"]
            while !expected.isSubset(of: texts), let event = await webMessages.next() {
                if case .message(let message) = event { texts.insert("\(message.user): \(message.message)") }
            }
            #expect(expected.isSubset(of: texts))
            var lines: Set<LineChatEvent> = []
            let expectedLines: Set<LineChatEvent> = [
                .message(name: "Ann", text: "hello from the web"), .message(name: "gregg", text: "hello from tcp"),
            ]
            while !expectedLines.isSubset(of: lines), let event = await tcpEvents.next() { lines.insert(event) }
            #expect(expectedLines.isSubset(of: lines))
            await web.close()
            await tcp.close()
        }
    }

    @Test("a /chat error frame is an event; the connection stays open")
    func lobbyRejection() async throws {
        try await withTestServer { server in
            let web = try await LobbyChatClient.connect(to: server.webSocketURL("/chat"), user: "Ann")
            try await web.send("   ")
            var events = web.events.makeAsyncIterator()
            #expect(await events.next() == .rejected("message is empty"))
            try await web.send("fine")
            var fine: ReceivingChatMessage?
            while fine == nil, let event = await events.next() {
                if case .message(let message) = event, message.message == "fine" { fine = message }
            }
            #expect(fine?.user == "Ann")
            await web.close()
        }
    }
}
