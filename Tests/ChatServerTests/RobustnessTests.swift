import ChatServer
import ChatTestSupport
import Foundation
import NIOCore
import NIOPosix
import Testing

@Suite("Bad clients cost nobody a message (PROTOCOL.md §5)")
struct RobustnessTests {
    @Test(
        "1,000 connections dropped abruptly, mid-frame and mid-line: the server stays up, leaves are announced, nobody is left behind"
    )
    func abruptDisconnects() async throws {
        try await withTestServer { server in
            // setup
            let watcher = try await server.joinedLineClient("watcher")
            let chatWatcher = try await server.chatClient()
            // act: 500 TCP clients join and die mid-line; 500 /chat clients die mid-frame.
            for batch in 0..<10 {
                var tcpClients: [LineClient] = []
                var wsClients: [WebSocketTestClient] = []
                for index in 0..<50 {
                    let tcp = try await server.lineClient()
                    // Cut inside the command word: whether the server reads the fragment at EOF or not, it is no
                    // message.
                    try await tcp.write("iam:tcp\(batch)-\(index)\nms")
                    tcpClients.append(tcp)
                    let ws = try await server.chatClient()
                    let frame = WebSocketTestClient.frame(
                        opcode: WebSocketTestClient.Opcode.text, payload: Array(#"{"message":"never finished"}"#.utf8))
                    try await ws.send(frame: Array(frame.prefix(frame.count / 2)))
                    wsClients.append(ws)
                }
                for index in 0..<50 {
                    if index.isMultiple(of: 2) {
                        await tcpClients[index].reset()
                    } else {
                        await tcpClients[index].close()
                    }
                    await wsClients[index].reset()
                }
            }
            // validate: every TCP joiner's leave was announced.
            var left = Set<String>()
            while left.count < 500 {
                let line = try await watcher.nextLine(timeout: .seconds(20))
                if line.hasSuffix(" has left") { left.insert(String(line.dropLast(" has left".count))) }
            }
            // The server still works for the survivors, and only they remain in the lobby.
            try await watcher.write("msg:still here\n")
            try await watcher.waitForLine("watcher:still here", timeout: .seconds(20))
            var seen: [String] = []
            while true {
                let text = try await chatWatcher.nextText(timeout: .seconds(20))
                seen.append(text)
                if text.contains("still here") { break }
            }
            #expect(!seen.contains { $0.contains("never finished") })
            try await eventually { try await server.service.lobbyMemberCount() == 2 }
        }
    }

    @Test("a client that stops reading is dropped with 1008 and everyone else gets every message")
    func slowWebSocketClient() async throws {
        try await withTestServer({
            $0.outboundQueueBytes = 256 * 1024
            $0.announceJoins = false
            $0.historyOnJoin = 0
        }) { server in
            // setup: a client whose socket is never read.
            let stuck = try await StalledClient.connect(host: server.host, port: server.httpPort)
            let reader = try await server.chatClient()
            let writer = try await server.lineClient()
            try await writer.write("iam:flood\n")
            // act: ~8 MB of messages, more than the kernel buffers plus the 256 KiB bound, sent in steps of 40 so
            // that the clients which do read are never more than a step behind.
            let text = String(repeating: "z", count: 3900)
            let count = 2000
            for index in 0..<count {
                try await writer.write("msg:\(index) \(text)\n")
                if index % 40 == 39 {
                    try await writer.waitForLine("flood:\(index) \(text)", timeout: .seconds(30))
                }
            }
            // validate
            for index in 0..<count {
                let received = try await reader.nextJSON(TutorialMessage.self, timeout: .seconds(30))
                #expect(received.message.hasPrefix("\(index) "))
            }
            try await eventually { try await server.service.lobbyMemberCount() == 2 }
            let scrape = try await MetricsScrape.take(server)
            #expect(scrape.total("swiftchat_slow_consumer_evictions_total", "reason=\"outbound_queue_full\"") == 1)
            await stuck.close()
        }
    }

    @Test(
        "SIGTERM-style shutdown: WebSockets get 1012, TCP gets a last line and is closed, and every accepted message is kept"
    )
    func gracefulShutdown() async throws {
        let directory = TestServer.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try await TestServer.start(dataDirectory: directory) { $0.announceJoins = false }
        let ws = try await server.chatClient()
        let tcp = try await server.joinedLineClient("Ann")
        for index in 0..<100 {
            try await tcp.write("msg:m\(index)\n")
        }
        try await tcp.waitForLine("Ann:m99")
        await server.stop()
        #expect(try await ws.nextCloseCode(timeout: .seconds(10)) == 1012)
        try await tcp.waitForLine("err:server is restarting; reconnect")
        try await eventually { tcp.isClosedByServer }

        let restarted = try await TestServer.start(dataDirectory: directory) {
            $0.historyOnJoin = 100
            $0.announceJoins = false
        }
        let reader = try await restarted.chatClient()
        var history: [String] = []
        for _ in 0..<100 { history.append(try await reader.nextJSON(TutorialMessage.self).message) }
        #expect(history == (0..<100).map { "m\($0)" })
        await restarted.stop()
    }
}

/// A WebSocket client that completes the handshake (to /chat unless told) and then never reads again.
struct StalledClient {
    let channel: any Channel

    /// Connects and waits for the `101` before returning: RFC 6455 §4.1 has a client wait for the handshake's
    /// answer before it sends a frame, and a frame sent earlier may reach the server's HTTP parser instead.
    static func connect(host: String, port: Int, path: String = "/chat") async throws -> StalledClient {
        let handshake = HandshakeAnswer()
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(.autoRead, value: false)
            // A small receive window, so what the server sends piles up on its side soon.
            .channelOption(.socketOption(.so_rcvbuf), value: 4096)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(handshake) }
            }
            .connect(host: host, port: port)
            .get()
        let request =
            "GET \(path) HTTP/1.1\r\nHost: \(host)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        try await channel.writeAndFlush(ByteBuffer(string: request))
        let head = try await handshake.head(on: channel)
        guard head.hasPrefix("HTTP/1.1 101") else { throw TestClientError("no upgrade: \(head)") }
        return StalledClient(channel: channel)
    }

    func close() async {
        try? await self.channel.close()
    }
}

/// Reads, one `read()` at a time (the channel does not read by itself), up to the end of the handshake's answer,
/// and no further: what the server sends after it stays unread.
private final class HandshakeAnswer: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer

    private var received = ""
    private var promise: EventLoopPromise<String>?

    /// The answer's head, once its blank line has arrived.
    func head(on channel: any Channel) async throws -> String {
        try await channel.eventLoop.flatSubmit {
            let promise = channel.eventLoop.makePromise(of: String.self)
            self.promise = promise
            channel.read()
            return promise.futureResult
        }.get()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        self.received += String(buffer: Self.unwrapInboundIn(data))
        if self.received.contains("\r\n\r\n") {
            self.promise?.succeed(self.received)
            self.promise = nil
        } else {
            context.read()
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        self.promise?.fail(TestClientError("closed during the handshake: \(self.received)"))
        self.promise = nil
    }
}
