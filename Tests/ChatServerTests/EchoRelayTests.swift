import ChatServer
import ChatTestSupport
import Foundation
import Testing

extension TestServer {
    func echoClient(_ id: String) async throws -> WebSocketTestClient {
        try await WebSocketTestClient.connect(host: self.host, port: self.httpPort, path: "/echo/?id=\(id)")
    }
}

@Suite("/echo: the gorilla/websocket relay (PROTOCOL.md §3)")
struct EchoRelayTests {
    @Test("text frames are relayed unchanged to every client, the sender included")
    func relaysText() async throws {
        try await withTestServer { server in
            let aries = try await server.echoClient("aries")
            let leo = try await server.echoClient("leo")
            let json = #"{"tag":1,"name":"aries","text":"hello","type":0}"#
            try await aries.send(text: json)
            for client in [aries, leo] {
                let frame = try #require(await client.frames.next())
                #expect(frame.opcode == WebSocketTestClient.Opcode.text && frame.text == json)
            }
        }
    }

    @Test("frames cut anywhere across reads, each read ending inside the next frame, arrive whole and in order")
    func framesAcrossReads() async throws {
        try await withTestServer { server in
            let sender = try await server.echoClient("cutter")
            // Short, 7-bit, 16-bit and 64-bit lengths.
            let texts = (0..<24).map { index in
                String(
                    repeating: Character(UnicodeScalar(UInt8(97 + index % 26))),
                    count: [5, 125, 126, 300, 70_000][index % 5])
            }
            let frames = texts.map {
                WebSocketTestClient.frame(opcode: WebSocketTestClient.Opcode.text, payload: Array($0.utf8))
            }
            // Each write holds the rest of one frame and the first bytes (1 to 13: inside the header, the length or
            // the mask) of the next, with a pause so that each is a read of its own.
            var pending: [UInt8] = []
            for (index, frame) in frames.enumerated() {
                let head = min(frame.count, 1 + index % 13)
                try await sender.send(frame: pending + Array(frame.prefix(head)))
                pending = Array(frame.dropFirst(head))
                try await Task.sleep(for: .milliseconds(2))
            }
            try await sender.send(frame: pending)
            for text in texts {
                #expect(try await sender.nextText(timeout: .seconds(10)) == text)
            }
        }
    }

    @Test("binary frames (images as base64) up to MiBs are relayed byte for byte")
    func relaysBinary() async throws {
        try await withTestServer { server in
            let sender = try await server.echoClient("a")
            let receiver = try await server.echoClient("b")
            let image = Array(
                Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }).base64EncodedString().utf8)
            try await sender.send(opcode: WebSocketTestClient.Opcode.binary, payload: image)
            for client in [sender, receiver] {
                let frame = try #require(await client.frames.next(timeout: .seconds(10)))
                #expect(frame.opcode == WebSocketTestClient.Opcode.binary && frame.payload == image)
            }
        }
    }

    @Test("a missing or empty id is refused with 400 and no upgrade", arguments: ["/echo/", "/echo/?id=", "/echo"])
    func requiresAnID(path: String) async throws {
        try await withTestServer { server in
            await #expect(throws: TestClientError.self) {
                _ = try await WebSocketTestClient.connect(host: server.host, port: server.httpPort, path: path)
            }
            let response = try await httpGet(host: server.host, port: server.httpPort, path: path)
            #expect(response.hasPrefix("HTTP/1.1 400"))
        }
    }

    @Test("relay frames are opaque: they never reach the lobby")
    func separateFromTheLobby() async throws {
        try await withTestServer { server in
            let echo = try await server.echoClient("a")
            let chat = try await server.chatClient()
            try await echo.send(text: #"{"message":"not for the lobby"}"#)
            _ = try #require(await echo.frames.next())
            #expect(await chat.frames.next(timeout: .milliseconds(300)) == nil)
        }
    }

    @Test func invalidUTF8ClosesWith1007() async throws {
        try await withTestServer { server in
            let client = try await server.echoClient("a")
            try await client.send(opcode: WebSocketTestClient.Opcode.text, payload: [0xCE, 0xBA, 0xE1, 0xBD])
            #expect(try await client.nextCloseCode() == 1007)
        }
    }

    @Test func answersPingsAndCloses() async throws {
        try await withTestServer { server in
            let client = try await server.echoClient("a")
            try await client.send(opcode: WebSocketTestClient.Opcode.ping, payload: Array("are you there".utf8))
            let pong = try #require(await client.frames.next())
            #expect(pong.opcode == WebSocketTestClient.Opcode.pong && pong.text == "are you there")
            try await client.sendClose(code: 4000)
            #expect(try await client.nextCloseCode() == 4000)
        }
    }
}
