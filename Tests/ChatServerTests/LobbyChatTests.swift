import ChatCore
import ChatProtocol
import ChatServer
import ChatTestSupport
import Foundation
import Testing

/// The tutorial client's view of a message: exactly its `ReceivingChatMessage`, decoded by a default decoder.
struct TutorialMessage: Decodable, Equatable {
    let date: Date
    let id: UUID
    let message: String
    let user: String
    let userID: UUID
}

/// Encodes what the tutorial's final stage sends.
func tutorialFrame(_ message: String, user: String, userID: UUID) -> String {
    String(
        decoding: try! JSONEncoder().encode(SubmittedChatMessage(message: message, user: user, userID: userID)),
        as: UTF8.self)
}

extension TestServer {
    func chatClient() async throws -> WebSocketTestClient {
        try await WebSocketTestClient.connect(host: self.host, port: self.httpPort, path: "/chat")
    }
}

@Suite("/chat: the Vapor SwiftUI tutorial's protocol (PROTOCOL.md §1)")
struct LobbyChatTests {
    @Test func broadcastsToEveryClientTheSenderIncluded() async throws {
        try await withTestServer({ $0.announceJoins = false }) { server in
            // setup
            let ann = try await server.chatClient()
            let ben = try await server.chatClient()
            let annID = UUID()
            // act
            let before = Date()
            try await ann.send(text: tutorialFrame("Hello, world", user: "Ann", userID: annID))
            // validate
            let seenByAnn = try await ann.nextJSON(TutorialMessage.self)
            let seenByBen = try await ben.nextJSON(TutorialMessage.self)
            #expect(seenByAnn == seenByBen)
            #expect(seenByAnn.message == "Hello, world" && seenByAnn.user == "Ann" && seenByAnn.userID == annID)
            #expect(seenByAnn.date >= before.addingTimeInterval(-1) && seenByAnn.date <= Date().addingTimeInterval(1))
        }
    }

    @Test("the server assigns id and date; fields a client adds are ignored")
    func serverAssignsIdentity() async throws {
        try await withTestServer({ $0.announceJoins = false }) { server in
            let client = try await server.chatClient()
            let forgedID = UUID()
            try await client.send(
                text:
                    #"{"message":"hi","user":"Ann","userID":"\#(UUID().uuidString)","id":"\#(forgedID.uuidString)","date":1}"#
            )
            let received = try await client.nextJSON(TutorialMessage.self)
            #expect(received.id != forgedID)
            #expect(received.date.timeIntervalSinceReferenceDate > 1000)
        }
    }

    @Test("the first stage sends only message and is treated as a guest")
    func firstStageGuest() async throws {
        try await withTestServer({ $0.announceJoins = false }) { server in
            let client = try await server.chatClient()
            try await client.send(text: #"{"message":"only text"}"#)
            let received = try await client.nextJSON(TutorialMessage.self)
            #expect(received.message == "only text" && received.user == "Guest")
        }
    }

    @Test("a new client first receives the last N lobby messages, oldest first, then live ones")
    func historyOnConnect() async throws {
        try await withTestServer({
            $0.historyOnJoin = 3
            $0.announceJoins = false
        }) { server in
            let writer = try await server.chatClient()
            let id = UUID()
            for index in 1...5 {
                try await writer.send(text: tutorialFrame("m\(index)", user: "W", userID: id))
                _ = try await writer.nextJSON(TutorialMessage.self)
            }
            let late = try await server.chatClient()
            let history = try await [
                late.nextJSON(TutorialMessage.self), late.nextJSON(TutorialMessage.self),
                late.nextJSON(TutorialMessage.self),
            ]
            #expect(history.map(\.message) == ["m3", "m4", "m5"])
            try await writer.send(text: tutorialFrame("live", user: "W", userID: id))
            #expect(try await late.nextJSON(TutorialMessage.self).message == "live")
        }
    }

    @Test("joins and leaves are announced by SwiftChat with a fixed userID")
    func announcements() async throws {
        try await withTestServer { server in
            let watcher = try await server.chatClient()
            let ann = try await server.chatClient()
            try await ann.send(text: tutorialFrame("hi", user: "Ann", userID: UUID()))
            let joined = try await watcher.nextJSON(TutorialMessage.self)
            #expect(joined.user == "SwiftChat" && joined.userID == TutorialIdentity.server.id)
            #expect(joined.message == "Ann has joined the chat")
            #expect(try await watcher.nextJSON(TutorialMessage.self).message == "hi")
            await ann.close()
            let left = try await watcher.nextJSON(TutorialMessage.self)
            #expect(left.message == "Ann has left the chat" && left.userID == TutorialIdentity.server.id)
        }
    }

    @Test(
        "bad frames get an error frame, the sender stays connected, nothing is stored or broadcast",
        arguments: [
            ("not json", "frame is not a JSON object"),
            (#"{"user":"Ann"}"#, "frame has no string field \"message\""),
            (#"{"message":""}"#, "message is empty"),
            (#"{"message":"   "}"#, "message is empty"),
            (#"{"message":"\#(String(repeating: "x", count: 4097))"}"#, "message is longer than 4096 bytes"),
            (
                #"{"message":"x","user":"evil\nsystem:forged"}"#,
                "user: name must be 1 to 64 bytes, without ':' or control characters"
            ),
        ])
    func badFrames(frame: String, reason: String) async throws {
        try await withTestServer({ $0.announceJoins = false }) { server in
            let sender = try await server.chatClient()
            let bystander = try await server.chatClient()
            try await sender.send(text: frame)
            #expect(try await sender.nextJSON(LobbyChatError.self) == LobbyChatError(error: reason))
            // Still connected: a valid message goes through, and it is the first thing the bystander sees.
            try await sender.send(text: tutorialFrame("after", user: "Ann", userID: UUID()))
            #expect(try await sender.nextJSON(TutorialMessage.self).message == "after")
            #expect(try await bystander.nextJSON(TutorialMessage.self).message == "after")
            let newcomer = try await server.chatClient()
            #expect(try await newcomer.nextJSON(TutorialMessage.self).message == "after")
            #expect(await newcomer.frames.next(timeout: .milliseconds(300)) == nil)
        }
    }

    @Test func binaryFramesGetAnErrorFrame() async throws {
        try await withTestServer { server in
            let client = try await server.chatClient()
            try await client.send(opcode: WebSocketTestClient.Opcode.binary, payload: [1, 2, 3])
            #expect(try await client.nextJSON(LobbyChatError.self).error.contains("binary"))
        }
    }

    @Test("invalid UTF-8 in a text frame closes with 1007")
    func invalidUTF8() async throws {
        try await withTestServer { server in
            let client = try await server.chatClient()
            try await client.send(
                opcode: WebSocketTestClient.Opcode.text,
                payload: Array(#"{"message":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8))
            #expect(try await client.nextCloseCode() == 1007)
        }
    }

    @Test("a message over the frame limit closes with 1009, fragmented or not")
    func oversizeFrame() async throws {
        try await withTestServer({ $0.maxFrameBytes = 1024 }) { server in
            let whole = try await server.chatClient()
            try await whole.send(opcode: WebSocketTestClient.Opcode.text, payload: Array(repeating: 0x61, count: 2000))
            #expect(try await whole.nextCloseCode() == 1009)

            let fragmented = try await server.chatClient()
            try await fragmented.send(
                opcode: WebSocketTestClient.Opcode.text, payload: Array(repeating: 0x61, count: 800), fin: false)
            try await fragmented.send(
                opcode: WebSocketTestClient.Opcode.continuation, payload: Array(repeating: 0x61, count: 800))
            #expect(try await fragmented.nextCloseCode() == 1009)
        }
    }

    @Test("a client frame without a mask fails the connection with 1002")
    func unmaskedFrame() async throws {
        try await withTestServer { server in
            let client = try await server.chatClient()
            let payload = Array(#"{"message":"hi"}"#.utf8)
            try await client.send(frame: [0x81, UInt8(payload.count)] + payload)
            #expect(try await client.nextCloseCode() == 1002)
        }
    }

    @Test(
        "a broken handshake gets an HTTP error, not silence",
        arguments: [
            ("Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 8\r\n", "HTTP/1.1 426"),
            ("Sec-WebSocket-Version: 13\r\n", "HTTP/1.1 400"),
            ("Sec-WebSocket-Key: short\r\nSec-WebSocket-Version: 13\r\n", "HTTP/1.1 400"),
        ])
    func brokenHandshake(headers: String, status: String) async throws {
        try await withTestServer { server in
            let client = try await LineClient.connect(host: server.host, port: server.httpPort)
            try await client.write(
                "GET /chat HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\(headers)\r\n")
            #expect(try await client.nextLine().hasPrefix(status))
            await client.close()
        }
    }

    @Test func plainHTTPGetsUpgradeRequired() async throws {
        try await withTestServer { server in
            let response = try await httpGet(host: server.host, port: server.httpPort, path: "/chat")
            #expect(response.hasPrefix("HTTP/1.1 426"))
        }
    }
}
