import ChatProtocol
import ChatServer
import ChatTestSupport
import Foundation
import NIOHTTP1
import Testing

@Suite("The modern WebSocket: acknowledged, idempotent, ordered, resumable (PROTOCOL.md §8)")
struct ModernSocketTests {
    @Test("a DM: the sender gets the message and an ack after it is durable; the other member gets it once")
    func directMessage() async throws {
        try await withTestServer { server in
            let ann = try await server.register("ann")
            let bob = try await server.register("bob")
            let dm = try await server.api.send(.POST, "/dms", json: UsernameRequest(username: "bob"), token: ann.token)
                .decode(RoomSummary.self)
            let annSocket = try await server.modernClient(ann)
            let bobSocket = try await server.modernClient(bob)
            _ = try await annSocket.next(.resumed, as: ResumedFrame.self)
            _ = try await bobSocket.next(.resumed, as: ResumedFrame.self)
            try await annSocket.send(.send(SendRequest(room: dm.id, clientMsgID: "c1", text: "hi bob")))
            let ack = try await annSocket.next(.ack, as: AckFrame.self)
            #expect(ack.clientMsgID == "c1" && ack.room == dm.id && ack.seq == 1)
            let received = try await bobSocket.next(.message, as: MessageFrame.self)
            #expect(
                received.text == "hi bob" && received.seq == 1 && received.id == ack.id && received.sender.name == "ann"
            )
            let history = try await server.api.send(.GET, "/rooms/\(dm.id)/messages", token: bob.token).decode(
                HistoryPage.self)
            #expect(history.messages.map(\.id) == [ack.id])
            let rooms = try await server.api.send(.GET, "/rooms", token: bob.token).decode([RoomSummary].self)
            #expect(rooms.first { $0.id == dm.id }?.unreadCount == 1)
        }
    }

    @Test(
        "a retry with the same clientMsgID returns the original ack and stores and delivers nothing new, even after a restart"
    )
    func idempotentRetry() async throws {
        let directory = TestServer.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var server = try await TestServer.start(dataDirectory: directory)
        let ann = try await server.register("ann")
        var socket = try await server.modernClient(ann)
        try await socket.send(.send(SendRequest(room: "lobby", clientMsgID: "same", text: "once")))
        let first = try await socket.next(.ack, as: AckFrame.self)
        try await socket.send(.send(SendRequest(room: "lobby", clientMsgID: "same", text: "once")))
        #expect(try await socket.next(.ack, as: AckFrame.self) == first)
        await server.stop()

        server = try await TestServer.start(dataDirectory: directory)
        let again = try await server.api.send(
            .POST, "/login", json: LoginRequest(username: "ann", password: "correct horse")
        ).decode(AuthSession.self)
        socket = try await server.modernClient(again)
        try await socket.send(.send(SendRequest(room: "lobby", clientMsgID: "same", text: "once")))
        #expect(try await socket.next(.ack, as: AckFrame.self) == first)
        let history = try await server.api.send(.GET, "/rooms/lobby/messages", token: again.token).decode(
            HistoryPage.self)
        #expect(history.messages.map(\.text) == ["once"])
        await server.stop()
    }

    @Test("resume replays exactly what was missed, then live messages: no gap, no duplicate")
    func resume() async throws {
        try await withTestServer { server in
            let ann = try await server.register("ann")
            let bob = try await server.register("bob")
            let annSocket = try await server.modernClient(ann)
            for index in 1...2 {
                try await annSocket.send(
                    .send(SendRequest(room: "lobby", clientMsgID: "m\(index)", text: "m\(index)")))
                _ = try await annSocket.next(.ack, as: AckFrame.self)
            }
            // Bob has seen up to seq 2, then three more arrive while he is away.
            for index in 3...5 {
                try await annSocket.send(
                    .send(SendRequest(room: "lobby", clientMsgID: "m\(index)", text: "m\(index)")))
                _ = try await annSocket.next(.ack, as: AckFrame.self)
            }
            let bobSocket = try await server.modernClient(bob, resume: ["lobby": 2])
            var seen: [Int64] = []
            for _ in 0..<3 { seen.append(try await bobSocket.next(.message, as: MessageFrame.self).seq) }
            let marker = try await bobSocket.next(.resumed, as: ResumedFrame.self)
            #expect(seen == [3, 4, 5] && marker == ResumedFrame(room: "lobby", latestSeq: 5, complete: true))
            try await annSocket.send(.send(SendRequest(room: "lobby", clientMsgID: "m6", text: "m6")))
            #expect(try await bobSocket.next(.message, as: MessageFrame.self).seq == 6)
        }
    }

    @Test("a gap larger than the replay limit says so instead of replaying")
    func resumeGapTooLarge() async throws {
        try await withTestServer({ $0.maxReplay = 2 }) { server in
            let ann = try await server.register("ann")
            let tcp = try await server.joinedLineClient("t")
            for index in 1...5 { try await tcp.write("msg:m\(index)\n") }
            try await tcp.waitForLine("t:m5")
            let socket = try await server.modernClient(ann, resume: ["lobby": 0])
            let marker = try await socket.next(.resumed, as: ResumedFrame.self)
            #expect(marker == ResumedFrame(room: "lobby", latestSeq: 5, complete: false))
        }
    }

    @Test("rooms you are not in: sending, reading and resuming are forbidden, and nothing is stored")
    func forbidden() async throws {
        try await withTestServer { server in
            let ann = try await server.register("ann")
            let bob = try await server.register("bob")
            _ = try await server.register("eve")
            let dm = try await server.api.send(.POST, "/dms", json: UsernameRequest(username: "bob"), token: ann.token)
                .decode(RoomSummary.self)
            let eve = try await server.api.send(
                .POST, "/login", json: LoginRequest(username: "eve", password: "correct horse")
            ).decode(AuthSession.self)
            let socket = try await server.modernClient(eve, resume: nil)
            try await socket.send(.send(SendRequest(room: dm.id, clientMsgID: "x", text: "let me in")))
            #expect(
                try await socket.next(.error, as: ErrorFrame.self)
                    == ErrorFrame(
                        code: .forbidden, message: "You are not a member of that room, or it does not exist.", ref: "x")
            )
            try await socket.send(.history(HistoryRequest(room: dm.id, ref: "h")))
            #expect(try await socket.next(.error, as: ErrorFrame.self).code == .forbidden)
            try await socket.send(.resume(ResumeRequest(rooms: [dm.id: 0])))
            #expect(try await socket.next(.error, as: ErrorFrame.self).ref == dm.id)
            let history = try await server.api.send(.GET, "/rooms/\(dm.id)/messages", token: bob.token).decode(
                HistoryPage.self)
            #expect(history.messages.isEmpty)
        }
    }

    @Test("no token or a bad token: 401 and no upgrade", arguments: ["/api/v1/ws", "/api/v1/ws?token=nope"])
    func unauthenticated(path: String) async throws {
        try await withTestServer { server in
            await #expect(throws: TestClientError.self) {
                _ = try await WebSocketTestClient.connect(host: server.host, port: server.httpPort, path: path)
            }
            let response = try await httpGet(host: server.host, port: server.httpPort, path: path)
            #expect(response.hasPrefix("HTTP/1.1 401"))
        }
    }

    @Test("a channel broadcasts to every member's connections, every device included, and to nobody else")
    func channelBroadcast() async throws {
        try await withTestServer { server in
            let ann = try await server.register("ann")
            let bob = try await server.register("bob")
            let eve = try await server.register("eve")
            let channel = try await server.api.send(
                .POST, "/rooms", json: CreateRoomRequest(kind: "channel", name: "news", members: ["bob"]),
                token: ann.token
            ).decode(RoomSummary.self)
            let bobPhone = try await server.modernClient(bob)
            let bobLaptop = try await server.modernClient(bob)
            let eveSocket = try await server.modernClient(eve)
            let annSocket = try await server.modernClient(ann)
            for socket in [bobPhone, bobLaptop, eveSocket, annSocket] {
                _ = try await socket.next(.resumed, as: ResumedFrame.self)
            }
            try await annSocket.send(
                .send(SendRequest(room: channel.id, clientMsgID: "n1", text: "extra")))
            for socket in [annSocket, bobPhone, bobLaptop] {
                #expect(try await socket.next(.message, as: MessageFrame.self).text == "extra")
            }
            // Eve hears that the others are online (they share the lobby), but nothing of a channel she is not in.
            while let frame = await eveSocket.frames.next(timeout: .milliseconds(300)) {
                #expect(!frame.text.contains(channel.id))
            }
        }
    }

    @Test("leaving a room takes effect on connections already open: no more messages, no more sends")
    func leavingStopsOpenConnections() async throws {
        try await withTestServer { server in
            let ann = try await server.register("ann")
            let bob = try await server.register("bob")
            let group = try await server.api.send(
                .POST, "/rooms", json: CreateRoomRequest(kind: "group", name: "g", members: ["bob"]), token: ann.token
            ).decode(RoomSummary.self)
            let annSocket = try await server.modernClient(ann)
            let bobSocket = try await server.modernClient(bob)
            for socket in [annSocket, bobSocket] { _ = try await socket.next(.resumed, as: ResumedFrame.self) }
            #expect(try await server.api.send(.POST, "/rooms/\(group.id)/leave", token: bob.token).status == 204)
            try await annSocket.send(
                .send(SendRequest(room: group.id, clientMsgID: "after", text: "bob is gone")))
            _ = try await annSocket.next(.ack, as: AckFrame.self)
            var bobSaw: [String] = []
            while let frame = await bobSocket.frames.next(timeout: .milliseconds(300)) { bobSaw.append(frame.text) }
            #expect(!bobSaw.contains { $0.contains("bob is gone") })
            try await bobSocket.send(
                .send(SendRequest(room: group.id, clientMsgID: "b", text: "still here?")))
            #expect(try await bobSocket.next(.error, as: ErrorFrame.self).code == .forbidden)
        }
    }

    @Test("read moves my unread count on every device and sends a receipt to the other members")
    func readReceipts() async throws {
        try await withTestServer { server in
            let ann = try await server.register("ann")
            let bob = try await server.register("bob")
            let dm = try await server.api.send(.POST, "/dms", json: UsernameRequest(username: "bob"), token: ann.token)
                .decode(RoomSummary.self)
            let annSocket = try await server.modernClient(ann)
            let bobPhone = try await server.modernClient(bob)
            let bobLaptop = try await server.modernClient(bob)
            for socket in [annSocket, bobPhone, bobLaptop] {
                _ = try await socket.next(.resumed, as: ResumedFrame.self)
            }
            for index in 1...3 {
                try await annSocket.send(
                    .send(SendRequest(room: dm.id, clientMsgID: "r\(index)", text: "r\(index)")))
                _ = try await annSocket.next(.ack, as: AckFrame.self)
            }
            var bobsView = try await server.api.send(.GET, "/rooms", token: bob.token).decode([RoomSummary].self).first
            { $0.id == dm.id }
            #expect(bobsView?.unreadCount == 3)
            // What ann wrote, ann has read: her read position moved with each message she sent.
            let annsRoom = try await server.api.send(.GET, "/rooms", token: ann.token).decode([RoomSummary].self)
                .first { $0.id == dm.id }
            #expect(annsRoom?.unreadCount == 0 && annsRoom?.lastReadSeq == 3)
            try await bobPhone.send(.read(ReadRequest(room: dm.id, seq: 2)))
            let receipt = ReceiptFrame(room: dm.id, user: bob.user.id, seq: 2)
            for socket in [annSocket, bobLaptop] {
                var seen: ReceiptFrame
                repeat { seen = try await socket.next(.receipt, as: ReceiptFrame.self) } while seen.user != bob.user.id
                #expect(seen == receipt)
            }
            bobsView = try await server.api.send(.GET, "/rooms", token: bob.token).decode([RoomSummary].self).first {
                $0.id == dm.id
            }
            #expect(bobsView?.lastReadSeq == 2 && bobsView?.unreadCount == 1)
            // Ann's view of the DM says how far Bob has read, so "Read" survives a reload.
            let annsView = try await server.api.send(.GET, "/rooms", token: ann.token).decode([RoomSummary].self).first
            { $0.id == dm.id }
            #expect(annsView?.peerLastReadSeq == 2)
            // A page's last word before it closes (read, then reload) still counts: the laptop reads to the end and
            // drops its connection at once, while the server still reads the history it asked for first.
            try await bobLaptop.send(.history(HistoryRequest(room: dm.id, limit: 100)))
            try await bobLaptop.send(.read(ReadRequest(room: dm.id, seq: 3)))
            await bobLaptop.reset()
            try await eventually("the read of a connection that closed right after it is kept") {
                try await server.api.send(.GET, "/rooms", token: bob.token).decode([RoomSummary].self)
                    .first { $0.id == dm.id }?.lastReadSeq == 3
            }

            try await bobPhone.send(.read(ReadRequest(room: dm.id, seq: 9, ref: "beyond")))
            #expect(try await bobPhone.next(.error, as: ErrorFrame.self).code == .badSeq)
            try await bobPhone.send(.read(ReadRequest(room: dm.id, seq: 1, ref: "back")))
            #expect(try await bobPhone.next(.error, as: ErrorFrame.self).code == .staleRead)
            let eve = try await server.register("eve")
            let eveSocket = try await server.modernClient(eve, resume: nil)
            try await eveSocket.send(.read(ReadRequest(room: dm.id, seq: 1)))
            #expect(try await eveSocket.next(.error, as: ErrorFrame.self).code == .forbidden)
            bobsView = try await server.api.send(.GET, "/rooms", token: bob.token).decode([RoomSummary].self).first {
                $0.id == dm.id
            }
            #expect(bobsView?.lastReadSeq == 3)
        }
    }

    @Test("a group's read positions can be fetched after being away; a message deleted unread stops counting")
    func groupReadsAndDeletedUnread() async throws {
        try await withTestServer { server in
            let ann = try await server.register("ann")
            let bob = try await server.register("bob")
            let eve = try await server.register("eve")
            let group = try await server.api.send(
                .POST, "/rooms", json: CreateRoomRequest(kind: "group", name: "Trip", members: ["bob"]),
                token: ann.token
            ).decode(RoomSummary.self)
            let annSocket = try await server.modernClient(ann)
            _ = try await annSocket.acked(.send(SendRequest(room: group.id, clientMsgID: "g1", text: "first")))
            _ = try await annSocket.acked(.send(SendRequest(room: group.id, clientMsgID: "g2", text: "second")))
            _ = try await annSocket.acked(.send(SendRequest(room: group.id, clientMsgID: "g3", text: "oops")))
            await annSocket.close()
            // bob reads up to 2 while ann is away
            let bobSocket = try await server.modernClient(bob)
            try await bobSocket.send(.read(ReadRequest(room: group.id, seq: 2)))
            // (ann's own position moved to her last message when she sent it)
            let expected = [
                ReceiptFrame(room: group.id, user: ann.user.id, seq: 3),
                ReceiptFrame(room: group.id, user: bob.user.id, seq: 2),
            ]
            try await eventually {
                try await server.api.send(.GET, "/rooms/\(group.id)/reads", token: ann.token).decode(
                    [ReceiptFrame].self) == expected
            }
            #expect(try await server.api.send(.GET, "/rooms/\(group.id)/reads", token: eve.token).status == 403)
            // ann deletes the message bob has not read: bob has nothing unread any more
            func bobsUnread() async throws -> Int64? {
                try await server.api.send(.GET, "/rooms", token: bob.token).decode([RoomSummary].self).first {
                    $0.id == group.id
                }?.unreadCount
            }
            #expect(try await bobsUnread() == 1)
            let annAgain = try await server.modernClient(ann)
            _ = try await annAgain.acked(.delete(DeleteRequest(room: group.id, clientMsgID: "d3", target: 3)))
            #expect(try await bobsUnread() == 0)
        }
    }

    @Test("a revoked or expired token cannot open the socket")
    func revokedToken() async throws {
        try await withTestServer { server in
            let ann = try await server.register("ann")
            #expect(try await server.api.send(.POST, "/logout", token: ann.token).status == 204)
            let response = try await httpGet(
                host: server.host, port: server.httpPort, path: "/api/v1/ws?token=\(ann.token)")
            #expect(response.hasPrefix("HTTP/1.1 401"))
        }
        try await withTestServer({ $0.tokenLifetime = -1 }) { server in
            let bob = try await server.register("bob")
            let response = try await httpGet(
                host: server.host, port: server.httpPort, path: "/api/v1/ws?token=\(bob.token)")
            #expect(response.hasPrefix("HTTP/1.1 401"))
        }
    }

    @Test("a client cannot choose sender, seq, id or date")
    func serverDecidesIdentity() async throws {
        try await withTestServer { server in
            let ann = try await server.register("ann")
            let socket = try await server.modernClient(ann)
            let forged =
                #"{"type":"send","room":"lobby","clientMsgID":"f","text":"hi","sender":{"id":"\#(UUID().uuidString)","name":"admin"},"seq":99,"id":"\#(UUID().uuidString)","date":1}"#
            try await socket.send(text: forged)
            let message = try await socket.next(.message, as: MessageFrame.self)
            #expect(
                message.sender.name == "ann" && message.sender.id == ann.user.id && message.seq == 1 && message.date > 1
            )
        }
    }

    @Test(
        "malformed frames get an error frame and the connection stays open",
        arguments: [
            ("not json", "bad_frame"),
            (#"{"no":"type"}"#, "bad_frame"),
            (#"{"type":"dance"}"#, "bad_frame"),
            (#"{"type":"send","room":"lobby","text":"no id"}"#, "bad_frame"),
            (#"{"type":"send","room":"lobby","clientMsgID":"e","text":"   "}"#, "empty_message"),
            (#"{"type":"history","room":"lobby","limit":0}"#, "bad_frame"),
        ])
    func malformedFrames(frame: String, code: String) async throws {
        try await withTestServer { server in
            let ann = try await server.register("ann")
            let socket = try await server.modernClient(ann, resume: nil)
            try await socket.send(text: frame)
            #expect(try await socket.next(.error, as: ErrorFrame.self).code.rawValue == code)
            try await socket.send(text: #"{"type":"ping"}"#)
            _ = try await socket.next(.pong)
        }
    }

    @Test("sending too fast is rate limited; every acked message is stored exactly once")
    func rateLimit() async throws {
        // A small burst and a slow refill, so the outcome does not depend on how fast this machine is.
        try await withTestServer({
            $0.sendBurst = 5
            $0.sendRate = 1
        }) { server in
            let ann = try await server.register("ann")
            let socket = try await server.modernClient(ann, resume: nil)
            for index in 0..<30 {
                try await socket.send(
                    .send(SendRequest(room: "lobby", clientMsgID: "r\(index)", text: "r\(index)")))
            }
            var acked: Set<String> = []
            var limited: Set<String> = []
            while acked.count + limited.count < 30 {
                switch try ServerMessage.decode(Data(try await socket.nextText().utf8)) {
                case .ack(let ack): acked.insert(ack.clientMsgID)
                case .error(let error) where error.code == .rateLimited: limited.insert(error.ref ?? "")
                default: break
                }
            }
            #expect(!limited.isEmpty && acked.count >= 5)
            let history = try await server.api.send(.GET, "/rooms/lobby/messages?limit=200", token: ann.token).decode(
                HistoryPage.self)
            #expect(Set(history.messages.map(\.text)) == acked && history.messages.count == acked.count)
        }
    }

    @Test("one account's sends from many connections at once share one limit; other accounts' sends beside them pass")
    func rateLimitAcrossConnections() async throws {
        try await withTestServer({
            $0.sendBurst = 5
            $0.sendRate = 1
        }) { server in
            let ann = try await server.register("ann")
            let others = [try await server.register("bob"), try await server.register("cat")]
            var sockets: [WebSocketTestClient] = []
            for _ in 0..<4 { sockets.append(try await server.modernClient(ann, resume: nil)) }
            var otherSockets: [WebSocketTestClient] = []
            for other in others { otherSockets.append(try await server.modernClient(other, resume: nil)) }
            let started = ContinuousClock.now
            // Every frame written before any answer is read, so the account's checks run at once on four workers
            // (on PostgreSQL, four statements on one bucket's row).
            for (index, socket) in sockets.enumerated() {
                for round in 0..<6 {
                    try await socket.send(
                        .send(SendRequest(room: "lobby", clientMsgID: "a\(index)-\(round)", text: "a")))
                }
            }
            for socket in otherSockets {
                try await socket.send(.send(SendRequest(room: "lobby", clientMsgID: "o", text: "o")))
            }
            var acked = 0
            for socket in sockets {
                var answered = 0
                while answered < 6 {
                    switch try ServerMessage.decode(Data(try await socket.nextText().utf8)) {
                    case .ack:
                        acked += 1
                        answered += 1
                    case .error(let error) where error.code == .rateLimited:
                        answered += 1
                    default:
                        break
                    }
                }
            }
            let elapsed = ContinuousClock.now - started
            // The burst, and at most one more per second of the test (the refill), whatever the machine's speed.
            #expect(acked >= 5 && acked <= 5 + Int(elapsed.components.seconds) + 1)
            for socket in otherSockets {
                #expect(try await socket.next(.ack, as: AckFrame.self).clientMsgID == "o")
            }
        }
    }
    @Test("history over the socket pages like the HTTP endpoint")
    func historyOverSocket() async throws {
        try await withTestServer { server in
            let ann = try await server.register("ann")
            let tcp = try await server.joinedLineClient("t")
            for index in 1...5 { try await tcp.write("msg:m\(index)\n") }
            try await tcp.waitForLine("t:m5")
            let socket = try await server.modernClient(ann, resume: nil)
            try await socket.send(.history(HistoryRequest(room: "lobby", before: 4, limit: 2, ref: "h1")))
            let page = try await socket.next(.history, as: HistoryFrame.self)
            #expect(page.messages.map(\.seq) == [2, 3] && page.hasMore && page.ref == "h1")
        }
    }

    @Test("a client that stops answering pings is dropped with 1001")
    func keepalive() async throws {
        try await withTestServer({ $0.pingInterval = 1 }) { server in
            let ann = try await server.register("ann")
            // The test client never answers pings.
            let socket = try await server.modernClient(ann, resume: nil)
            #expect(try await socket.nextCloseCode(timeout: .seconds(10)) == 1001)
        }
    }

    @Test("modern messages reach the tutorial clients in the lobby")
    func reachesTutorialClients() async throws {
        try await withTestServer { server in
            let tcp = try await server.joinedLineClient("Luke")
            let ann = try await server.register("ann")
            let socket = try await server.modernClient(ann)
            try await socket.send(
                .send(SendRequest(room: "lobby", clientMsgID: "l", text: "hello tutorials")))
            try await tcp.waitForLine("ann:hello tutorials")
        }
    }
}
