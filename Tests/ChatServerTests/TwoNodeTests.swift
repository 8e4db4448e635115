import ChatCore
import ChatPersistence
import ChatProtocol
import ChatServer
import ChatTestSupport
import Crypto
import Foundation
import NIOHTTP1
import Testing

/// Two servers on one PostgreSQL database, as two nodes behind a load balancer (issue 12): one order per room,
/// whichever node a client is on.
@Suite("Two nodes on one PostgreSQL database")
struct TwoNodeTests {
    /// Runs `body` with two servers sharing a new database (`database`, when given), and stops both.
    func withTwoNodes(
        on database: DatabaseURL? = nil, _ configure: @escaping (inout ServerConfiguration) -> Void = { _ in },
        _ body: (TestServer, TestServer) async throws -> Void
    ) async throws {
        var shared = database
        if shared == nil { shared = try await TestServer.makePostgresDatabase() }
        let database = shared
        // The nodes share one attachments directory, as a shared mount would.
        let attachments = TestServer.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: attachments) }
        try await withTestServer({
            $0.databaseURL = database
            $0.nodeName = "A"
            $0.attachmentsPath = attachments
            configure(&$0)
        }) { nodeA in
            try await withTestServer({
                $0.databaseURL = database
                $0.nodeName = "B"
                $0.attachmentsPath = attachments
                configure(&$0)
            }) { nodeB in
                try await body(nodeA, nodeB)
            }
        }
    }

    @Test(
        "a TCP client on A and one on B share the lobby: the same lines in the same order, joins and leaves announced on both"
    )
    func tcpAcrossNodes() async throws {
        try await self.withTwoNodes { nodeA, nodeB in
            let ann = try await nodeA.joinedLineClient("ann")
            let ben = try await nodeB.joinedLineClient("ben")
            // One lobby: a join on B is announced on A.
            _ = try await ann.waitForLine("ben has joined", timeout: .seconds(10))
            for index in 1...20 {
                try await ann.write("msg:a\(index)\n")
                try await ben.write("msg:b\(index)\n")
            }
            // Messages, in the room's one order. (An announcement is relayed beside the messages, not in their
            // order: Ann's own join, made before Ben's, may still reach Ben after his.)
            var seenByAnn: [String] = []
            var seenByBen: [String] = []
            while seenByAnn.count < 40 {
                let line = try await ann.nextLine()
                if line.contains(":") { seenByAnn.append(line) }
            }
            while seenByBen.count < 40 {
                let line = try await ben.nextLine()
                if line.contains(":") { seenByBen.append(line) }
            }
            #expect(seenByAnn == seenByBen)
            #expect(Set(seenByAnn).count == 40)
            // Each sender's own messages keep the order they were sent in.
            #expect(seenByAnn.filter { $0.hasPrefix("ann:") } == (1...20).map { "ann:a\($0)" })
            #expect(seenByAnn.filter { $0.hasPrefix("ben:") } == (1...20).map { "ben:b\($0)" })
            // A rename and a departure on B are announced on A as well.
            try await ben.write("iam:benjamin\n")
            _ = try await ann.waitForLine("ben has left", timeout: .seconds(10))
            _ = try await ann.waitForLine("benjamin has joined", timeout: .seconds(10))
            await ben.close()
            _ = try await ann.waitForLine("benjamin has left", timeout: .seconds(10))
        }
    }

    @Test("a /chat client on B sees what a TCP client on A sends, and the reverse")
    func tutorialProtocolsAcrossNodes() async throws {
        try await self.withTwoNodes({ $0.announceJoins = false }) { nodeA, nodeB in
            let luke = try await nodeA.joinedLineClient("Luke")
            let ann = try await nodeB.chatClient()
            try await luke.write("msg:from tcp on A\n")
            #expect(try await ann.nextJSON(TutorialMessage.self).message == "from tcp on A")
            try await ann.send(text: tutorialFrame("from /chat on B", user: "Ann", userID: UUID()))
            #expect(try await ann.nextJSON(TutorialMessage.self).message == "from /chat on B")
            try await luke.waitForLine("Ann:from /chat on B")
        }
    }

    @Test("a node started later reads the history the other node committed")
    func historyFromTheOtherNode() async throws {
        try await self.withTwoNodes({ $0.announceJoins = false }) { nodeA, nodeB in
            let luke = try await nodeA.joinedLineClient("Luke")
            for index in 1...3 { try await luke.write("msg:m\(index)\n") }
            try await luke.waitForLine("Luke:m3")
            let ann = try await nodeB.chatClient()
            var history: [String] = []
            for _ in 1...3 { history.append(try await ann.nextJSON(TutorialMessage.self).message) }
            #expect(history == ["m1", "m2", "m3"])
        }
    }
}

extension TwoNodeTests {
    @Test("accounts on different nodes: a message, a retry through the other node, typing and a receipt all cross")
    func modernAcrossNodes() async throws {
        try await self.withTwoNodes { nodeA, nodeB in
            let (ann, bob, dm, annSocket, bobSocket) = try await nodeA.pair(bobConnectedTo: nodeB)
            try await annSocket.send(.send(SendRequest(room: dm.id, clientMsgID: "m1", text: "hi bob")))
            let ack = try await annSocket.next(.ack, as: AckFrame.self)
            let received = try await bobSocket.next(.message, as: MessageFrame.self)
            #expect(received.event.seq == ack.seq && received.event.text == "hi bob")
            // Ann's phone on node B retries the same send: the original comes back, and nothing new is stored.
            let annPhone = try await nodeB.modernClient(ann)
            _ = try await annPhone.next(.resumed, as: ResumedFrame.self)
            try await annPhone.send(.send(SendRequest(room: dm.id, clientMsgID: "m1", text: "hi bob")))
            #expect(try await annPhone.next(.ack, as: AckFrame.self) == ack)
            // Typing and reading on B reach Ann on A.
            try await bobSocket.send(.typing(TypingRequest(room: dm.id)))
            #expect(try await annSocket.next(.typing, as: TypingFrame.self).user.id == bob.user.id)
            try await bobSocket.send(.read(ReadRequest(room: dm.id, seq: ack.seq)))
            // (Ann's own receipt for what she wrote may come first.)
            var receipt = try await annSocket.next(.receipt, as: ReceiptFrame.self)
            while receipt.user == ann.user.id { receipt = try await annSocket.next(.receipt, as: ReceiptFrame.self) }
            #expect(receipt.user == bob.user.id && receipt.seq == ack.seq)
            // The only message in the room is the first one: B's next event is a new message, numbered after it.
            try await annSocket.send(.send(SendRequest(room: dm.id, clientMsgID: "m2", text: "again")))
            #expect(try await bobSocket.next(.message, as: MessageFrame.self).event.seq == ack.seq + 1)
        }
    }
}

extension TwoNodeTests {
    @Test("rooms opened and left through node A reach and leave a connection on node B")
    func membershipAcrossNodes() async throws {
        try await self.withTwoNodes { nodeA, nodeB in
            let ann = try await nodeA.register("ann")
            let bob = try await nodeA.register("bob")
            let bobSocket = try await nodeB.modernClient(bob)
            _ = try await bobSocket.next(.resumed, as: ResumedFrame.self)
            let annSocket = try await nodeA.modernClient(ann)
            let dm = try await nodeA.api.send(.POST, "/dms", json: UsernameRequest(username: "bob"), token: ann.token)
                .decode(RoomSummary.self)
            _ = try await annSocket.acked(.send(SendRequest(room: dm.id, clientMsgID: "d1", text: "hello bob")))
            #expect(try await bobSocket.next(.joined, as: JoinedFrame.self).room.id == dm.id)
            #expect(try await bobSocket.next(.message, as: MessageFrame.self).text == "hello bob")
            let group = try await nodeA.api.send(
                .POST, "/rooms", json: CreateRoomRequest(kind: "group", name: "Team", members: ["bob"]),
                token: ann.token
            ).decode(RoomSummary.self)
            #expect(try await bobSocket.next(.joined, as: JoinedFrame.self).room.id == group.id)
            // Bob leaves through node A; his connection on node B stops receiving the group.
            #expect(try await nodeA.api.send(.POST, "/rooms/\(group.id)/leave", token: bob.token).status == 204)
            #expect(try await bobSocket.next(.left, as: LeftFrame.self).room == group.id)
            _ = try await annSocket.acked(.send(SendRequest(room: group.id, clientMsgID: "g1", text: "gone?")))
            _ = try await annSocket.acked(.send(SendRequest(room: dm.id, clientMsgID: "d2", text: "still here")))
            // His own `left` event of the group may reach him before his connection lets go of the group; nothing
            // after it does.
            var next = try await bobSocket.next(.message, as: MessageFrame.self)
            while next.event.eventKind == .left { next = try await bobSocket.next(.message, as: MessageFrame.self) }
            #expect(next.text == "still here")
        }
    }

    @Test("logging out on node A closes the connections opened with that token on node B")
    func revocationAcrossNodes() async throws {
        try await self.withTwoNodes { nodeA, nodeB in
            let ann = try await nodeA.register("ann")
            let socket = try await nodeB.modernClient(ann)
            _ = try await socket.next(.resumed, as: ResumedFrame.self)
            #expect(try await nodeA.api.send(.POST, "/logout", token: ann.token).status == 204)
            #expect(try await socket.nextCloseCode(timeout: .seconds(10)) != nil)
        }
    }

    @Test(
        "deactivating an account closes its sockets on every node with 4003: over the API on node A, and at the command line, which is no node"
    )
    func deactivationAcrossNodes() async throws {
        try await self.withTwoNodes { nodeA, nodeB in
            let admin = try await nodeA.register("root")
            _ = try await nodeA.admin("grant", "root")
            let bob = try await nodeA.register("bob")
            let onB = try await nodeB.modernClient(bob)
            _ = try await onB.next(.resumed, as: ResumedFrame.self)
            let deactivate = try await nodeA.api.send(.adminDeactivate, bob.user.id.uuidString, token: admin.token)
            #expect(deactivate.status == 200)
            #expect(try await onB.nextCloseCode(timeout: .seconds(10)) == 4003)

            _ = try await nodeA.admin("reactivate", "bob")
            let again = try await nodeB.api.send(
                .POST, "/login", json: LoginRequest(username: "bob", password: "correct horse")
            ).decode(AuthSession.self)
            let socket = try await nodeB.modernClient(again)
            _ = try await socket.next(.resumed, as: ResumedFrame.self)
            _ = try await nodeA.admin("deactivate", "bob")
            #expect(try await socket.nextCloseCode(timeout: .seconds(10)) == 4003)
        }
    }

    @Test("a message committed on node A is pushed once to a member away, by node A alone")
    func onePushAcrossNodes() async throws {
        let receiver = try await PushReceiver.start()
        try await self.withTwoNodes(on: nil, { $0.outboundAllow = [AddressRange("127.0.0.0/8")!] }) { nodeA, nodeB in
            let ann = try await nodeA.register("ann")
            let bob = try await nodeB.register("bob")
            let dm = try await nodeA.api.send(.directRoom, json: UsernameRequest(username: "bob"), token: ann.token)
                .decode(RoomSummary.self)
            let browser = P256.KeyAgreement.PrivateKey()
            let auth = Data((0..<16).map { _ in UInt8.random(in: 0...255) })
            let subscribed = try await nodeB.api.send(
                .subscribePush,
                json: PushSubscriptionRequest(
                    endpoint: receiver.endpoint("bob"),
                    keys: .init(p256dh: browser.publicKey.x963Representation.base64URL, auth: auth.base64URL)),
                token: bob.token)
            #expect(subscribed.status == 201)
            let annSocket = try await nodeA.modernClient(ann)
            _ = try await annSocket.next(.resumed, as: ResumedFrame.self)
            _ = try await annSocket.acked(.send(SendRequest(room: dm.id, clientMsgID: "a1", text: "are you there?")))
            let pushed = try #require(await receiver.requests.next(timeout: .seconds(15)))
            let body = try WebPushEncryption.decrypt(pushed.body, privateKey: browser, authSecret: auth)
            #expect(String(decoding: body, as: UTF8.self).contains("are you there?"))
            #expect(pushed.headers.first(name: "Urgency") == "high")
            #expect(await receiver.requests.next(timeout: .seconds(1)) == nil)
        }
        await receiver.stop()
    }

    @Test(
        "a moderator on node A removes a member connected to node B: B's connection gets the `removed` event, then `left`, and nothing after"
    )
    func removalAcrossNodes() async throws {
        try await self.withTwoNodes { nodeA, nodeB in
            let ann = try await nodeA.register("ann")
            let bob = try await nodeA.register("bob")
            let group = try await nodeA.api.send(
                .createRoom, json: CreateRoomRequest(kind: "group", name: "Team", members: ["bob"]), token: ann.token
            ).decode(RoomSummary.self)
            let onB = try await nodeB.modernClient(bob)
            _ = try await onB.next(.resumed, as: ResumedFrame.self)
            let annSocket = try await nodeA.modernClient(ann)
            _ = try await annSocket.next(.resumed, as: ResumedFrame.self)
            #expect(
                try await nodeA.api.send(.removeMember, group.id, bob.user.id.uuidString, token: ann.token).status
                    == 204)
            #expect(try await onB.next(.left, as: LeftFrame.self).room == group.id)
            _ = try await annSocket.acked(.send(SendRequest(room: group.id, clientMsgID: "a1", text: "after")))
            try await onB.send(.send(SendRequest(room: group.id, clientMsgID: "b1", text: "still in?")))
            let refused = try await onB.next(.error, as: ErrorFrame.self)
            #expect(refused.code == .forbidden && refused.ref == "b1")
            let page = try await nodeA.api.send(.history, group.id, token: ann.token).decode(HistoryPage.self)
            #expect(page.messages.map(\.eventKind) == [.removed, .message])
        }
    }
}

extension TwoNodeTests {
    @Test("the listening connections killed by the database: delivery heals by the reconcile, and they come back")
    func listenerKilled() async throws {
        let database = try await TestServer.makePostgresDatabase()
        try await self.withTwoNodes(on: database, { $0.announceJoins = false }) { nodeA, nodeB in
            let luke = try await nodeA.joinedLineClient("Luke")
            let ann = try await nodeB.joinedLineClient("Ann")
            try await luke.write("msg:before\n")
            try await ann.waitForLine("Luke:before")
            try await TestPostgres.shared().psql(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(database.database)' AND query ILIKE 'LISTEN%'"
            )
            // Sent while node B has no listener: the reconcile (every second) or the new listener brings it.
            try await luke.write("msg:while B was deaf\n")
            try await ann.waitForLine("Luke:while B was deaf", timeout: .seconds(10))
            try await eventually("node B listens again") {
                let ready = try await nodeB.raw(.GET, "/readyz")
                let body = String(decoding: ready.body, as: UTF8.self)
                return ready.status == 200 && body.contains("\"listener\":\"ok\"")
                    && body.contains("\"news_listener\":\"ok\"")
            }
            try await luke.write("msg:after\n")
            try await ann.waitForLine("Luke:after")
        }
    }
}

extension TwoNodeTests {
    @Test("a read of a message committed on another node is accepted before this node has delivered it")
    func readAheadOfDelivery() async throws {
        let database = try await TestServer.makePostgresDatabase()
        try await self.withTwoNodes(on: database) { nodeA, nodeB in
            let ann = try await nodeA.register("ann")
            let bob = try await nodeB.register("bob")
            let dm = try await nodeA.api.send(.POST, "/dms", json: UsernameRequest(username: "bob"), token: ann.token)
                .decode(RoomSummary.self)
            let annSocket = try await nodeA.modernClient(ann)
            let bobSocket = try await nodeB.modernClient(bob)
            // Generous waits for each answer: under a full parallel run two nodes on one core may take seconds.
            let patience = Duration.seconds(20)
            _ = try await annSocket.next(.resumed, as: ResumedFrame.self, timeout: patience)
            _ = try await bobSocket.next(.resumed, as: ResumedFrame.self, timeout: patience)
            try await annSocket.send(.send(SendRequest(room: dm.id, clientMsgID: "d1", text: "one")))
            _ = try await annSocket.next(.ack, as: AckFrame.self, timeout: patience)
            _ = try await bobSocket.next(.message, as: MessageFrame.self, timeout: patience)
            // Node B stops hearing node A's commits (its listeners are killed), so the DM, open on B, lags.
            try await TestPostgres.shared().psql(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(database.database)' AND query ILIKE 'LISTEN%'"
            )
            try await annSocket.send(.send(SendRequest(room: dm.id, clientMsgID: "d2", text: "two")))
            let ack = try await annSocket.next(.ack, as: AckFrame.self, timeout: patience)
            // Bob read it elsewhere (another device, on node A); his read through B is accepted, not bad_seq.
            try await bobSocket.send(.read(ReadRequest(room: dm.id, seq: ack.seq, ref: "r2")))
            var receipt: ReceiptFrame
            repeat {
                receipt = try await bobSocket.next(.receipt, as: ReceiptFrame.self, timeout: patience)
            } while receipt.user != bob.user.id || receipt.seq != ack.seq
            let rooms = try await nodeA.api.send(.GET, "/rooms", token: bob.token).decode([RoomSummary].self)
            #expect(rooms.first { $0.id == dm.id }?.lastReadSeq == ack.seq)
        }
    }

    @Test("a member removed behind the node's back (its notification lost) is refused by the commit, not stored")
    func removedMemberRefusedAtCommit() async throws {
        let database = try await TestServer.makePostgresDatabase()
        try await self.withTwoNodes(on: database) { nodeA, nodeB in
            let ann = try await nodeA.register("ann")
            let bob = try await nodeB.register("bob")
            let socket = try await nodeA.modernClient(ann)
            _ = try await socket.next(.resumed, as: ResumedFrame.self, timeout: .seconds(20))
            #expect(
                try await Self.accepted(
                    .send(SendRequest(room: "lobby", clientMsgID: "1", text: "in")), on: socket))
            // The connection still follows the lobby: only the commit can tell.
            try await TestPostgres.shared().psql(
                "DELETE FROM memberships WHERE room_id = 'lobby' AND user_id = '\(ann.user.id)'",
                database: database.database)
            try await socket.send(.send(SendRequest(room: "lobby", clientMsgID: "2", text: "out")))
            let refused = try await socket.next(.error, as: ErrorFrame.self, timeout: .seconds(20))
            #expect(refused.code == .forbidden && refused.ref == "2")
            #expect(try await nodeA.api.send(.GET, "/rooms/lobby/messages?limit=10", token: ann.token).status == 403)
            let seen = try await nodeB.api.send(.GET, "/rooms/lobby/messages?limit=10", token: bob.token)
                .decode(HistoryPage.self).messages.map(\.text)
            #expect(seen.contains("in") && !seen.contains("out"))
        }
    }

    @Test("the per-account send limit is one for every node: a burst spent on A is spent on B")
    func sendLimitAcrossNodes() async throws {
        try await self.withTwoNodes({
            $0.sendBurst = 5
            $0.sendRate = 1
        }) { nodeA, nodeB in
            let ann = try await nodeA.register("ann")
            let onA = try await nodeA.modernClient(ann)
            let onB = try await nodeB.modernClient(ann)
            // Generous waits for each answer: under a full parallel run two nodes on one core may take seconds.
            for socket in [onA, onB] {
                _ = try await socket.next(.resumed, as: ResumedFrame.self, timeout: .seconds(20))
            }
            // A spends the budget until it is refused (the bucket refills by one a second, so a loaded machine may
            // need a send or two more than the burst)...
            var accepted = 0
            while try await Self.accepted(
                .send(SendRequest(room: "lobby", clientMsgID: "a\(accepted)", text: "a")), on: onA)
            {
                accepted += 1
                try #require(accepted <= 20)
            }
            #expect(accepted >= 5)
            // ...and B, right after, finds it spent: it gets what refilled since (none, or one or two on a machine
            // slow enough for seconds to pass), never a burst of its own.
            var acceptedOnB = 0
            while try await Self.accepted(
                .send(SendRequest(room: "lobby", clientMsgID: "b\(acceptedOnB)", text: "b")), on: onB)
            {
                acceptedOnB += 1
                try #require(acceptedOnB <= 20)
            }
            #expect(acceptedOnB < 5, "B had a burst of its own")
        }
    }
}

extension TwoNodeTests {
    /// Sends `frame` and returns whether it was acknowledged (`true`) or refused by the rate limit (`false`).
    static func accepted(_ message: ClientMessage, on socket: WebSocketTestClient) async throws -> Bool {
        try await socket.send(message)
        while true {
            switch try? ServerMessage.decode(Data(try await socket.nextText(timeout: .seconds(20)).utf8)) {
            case .ack: return true
            case .error(let error):
                try #require(error.code == .rateLimited, "\(error)")
                return false
            default: continue
            }
        }
    }
}

@Suite("Start-up on PostgreSQL: clear refusals, and nodes that start together")
struct PostgresStartupTests {
    @Test("an unreachable or unknown database stops start-up naming --database-url, never showing the password")
    func refusals() async throws {
        let server = try await TestPostgres.shared()
        let urls = [
            "postgres://chat:hunter2@127.0.0.1:1/chat",
            "postgres://chat:hunter2@/no_such_database?host=\(server.directory)&port=\(TestPostgres.socketPort)",
        ]
        for url in urls {
            let database = try DatabaseURL(url)
            await #expect {
                try await TestServer.start { $0.databaseURL = database }
            } throws: { error in
                let message = "\(error)"
                return message.hasPrefix("--database-url postgres://chat:***@") && !message.contains("hunter2")
            }
        }
    }

    @Test("on PostgreSQL a node refuses to start until its attachments directory is said to be shared")
    func attachmentsMustBeShared() async throws {
        let database = try await TestServer.makePostgresDatabase()
        await #expect {
            try await TestServer.start {
                $0.databaseURL = database
                $0.attachmentsShared = false
            }
        } throws: { error in
            "\(error)".hasPrefix("--attachments-dir ") && "\(error)".contains("--attachments-shared true")
        }
    }

    @Test("nodes started at the same moment on a new database migrate it once, one after the other")
    func concurrentMigrations() async throws {
        let database = try await TestServer.makePostgresDatabase()
        let nodes = try await withThrowingTaskGroup(of: TestServer.self) { group in
            for _ in 0..<3 {
                group.addTask { try await TestServer.start { $0.databaseURL = database } }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(nodes.count == 3)
        let luke = try await nodes[0].joinedLineClient("Luke")
        let ann = try await nodes[2].joinedLineClient("Ann")
        try await luke.write("msg:after three starts\n")
        try await ann.waitForLine("Luke:after three starts")
        for node in nodes { await node.stop() }
    }
}
