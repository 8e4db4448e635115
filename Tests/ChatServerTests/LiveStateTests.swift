import ChatCore
import ChatProtocol
import ChatServer
import ChatTestSupport
import Foundation
import NIOHTTP1
import Testing

@Suite("Typing, presence, rooms joined and left while connected (PROTOCOL.md §9.4–§9.6)")
struct LiveStateTests {
    @Test("typing reaches the other member, not my own devices")
    func typing() async throws {
        try await withTestServer { server in
            let (ann, bob, dm, annSocket, bobSocket) = try await server.pair()
            let annPhone = try await server.modernClient(ann)
            try await annSocket.send(.typing(TypingRequest(room: dm.id)))
            let typing = try await bobSocket.next(.typing, as: TypingFrame.self)
            #expect(typing.room == dm.id && typing.user == SenderPayload(id: ann.user.id, name: "ann"))
            // Ann's other device hears her message but not her typing.
            _ = try await annSocket.acked(.send(SendRequest(room: dm.id, clientMsgID: "m", text: "hi")))
            let next = try await annPhone.nextText()
            #expect(!next.contains("\"typing\"") && !next.contains("\"type\":\"typing\""))
            _ = bob
        }
    }

    @Test("presence: online on connect, offline after the grace period with last seen; a quick reconnect does not flap")
    func presence() async throws {
        // Time stands still until the test moves it: a reconnect is inside the grace period however slow the machine.
        let time = ManualTime()
        try await withTestServer(time: time, { $0.presenceGrace = 3 }) { server in
            let ann = try await server.register("ann")
            let bob = try await server.register("bob")
            let annSocket = try await server.modernClient(ann)
            let bobSocket = try await WebSocketTestClient.connect(
                host: server.host, port: server.httpPort, path: "/api/v1/ws?token=\(bob.token)")
            _ = try await bobSocket.next(.hello, as: HelloFrame.self)
            let snapshot = try await bobSocket.next(.presence, as: PresenceFrame.self)
            #expect(snapshot.users.contains(PresenceEntry(id: ann.user.id, online: true, lastSeen: nil)))
            let details = try await server.api.send(.GET, "/users/\(ann.user.id)", token: bob.token).decode(
                UserDetails.self)
            #expect(details.online && details.lastSeen == nil && details.username == "ann")

            // A reconnect inside the grace period says nothing: while time stands still, no frame says ann went
            // offline. A frame that repeats her being online may come (entries are states, PROTOCOL.md §9.5: her
            // connect's own news can reach this node after Bob's snapshot).
            await annSocket.close()
            let annAgain = try await server.modernClient(ann)
            await annAgain.close()
            while let repeated = try? await bobSocket.next(
                .presence, as: PresenceFrame.self, timeout: .milliseconds(300))
            {
                #expect(Self.repeatsOnline(repeated, ann.user.id), "ann flapped: \(repeated.users)")
            }
            let offline = try await Self.firstChange(on: bobSocket, besidesOnline: ann.user.id, moving: time)
            #expect(
                offline.users.count == 1 && offline.users[0].id == ann.user.id && !offline.users[0].online
                    && offline.users[0].lastSeen != nil)
            let after = try await server.api.send(.GET, "/users/\(ann.user.id)", token: bob.token).decode(
                UserDetails.self)
            #expect(!after.online && after.lastSeen == offline.users[0].lastSeen)
            #expect(try await server.api.send(.GET, "/users/\(UUID())", token: bob.token).status == 404)
        }
    }

    @Test(
        "many connecting at once: each gets its snapshot as its first presence frame, then changes, and ends up seeing everyone else online"
    )
    func presenceUnderAConnectStorm() async throws {
        try await withTestServer { server in
            var accounts: [AuthSession] = []
            for index in 0..<24 { accounts.append(try await server.register("storm\(index)")) }
            let everyone = Set(accounts.map(\.user.id))
            // Every client connects at once, then reads its presence frames until it sees all the others online.
            // The sockets stay open until every client is done: a close would be a change for the others.
            let sockets = try await withThrowingTaskGroup(of: WebSocketTestClient.self) { group in
                for account in accounts {
                    group.addTask {
                        let socket = try await WebSocketTestClient.connect(
                            host: server.host, port: server.httpPort, path: "/api/v1/ws?token=\(account.token)")
                        _ = try await socket.next(.hello, as: HelloFrame.self)
                        // The first frame after hello is the snapshot, which lists the account itself: no change
                        // may overtake it.
                        let first = try JSONDecoder().decode(
                            PresenceFrame.self, from: Data(try await socket.nextText().utf8))
                        #expect(first.users.allSatisfy { $0.online })
                        #expect(first.users.contains { $0.id == account.user.id })
                        var online = Set(first.users.map(\.id))
                        while online != everyone {
                            let change = try await socket.next(.presence, as: PresenceFrame.self)
                            for entry in change.users {
                                #expect(entry.id != account.user.id, "told of its own presence")
                                if entry.online { online.insert(entry.id) } else { online.remove(entry.id) }
                            }
                        }
                        return socket
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            for socket in sockets { await socket.close() }
        }
    }

    @Test("typing is forwarded at most once per 2 s per user and room")
    func typingThrottle() async throws {
        let time = ManualTime()
        try await withTestServer(time: time) { server in
            let (_, _, dm, annSocket, bobSocket) = try await server.pair()
            for _ in 1...3 { try await annSocket.send(.typing(TypingRequest(room: dm.id))) }
            _ = try await annSocket.acked(.send(SendRequest(room: dm.id, clientMsgID: "m1", text: "one")))
            #expect(
                frames(try await bobSocket.frames(through: .message), ofType: .typing, as: TypingFrame.self).count
                    == 1)
            // Once the 2 s have passed, the next one goes through again.
            time.advance(by: .seconds(2))
            try await annSocket.send(.typing(TypingRequest(room: dm.id)))
            _ = try await annSocket.acked(.send(SendRequest(room: dm.id, clientMsgID: "m2", text: "two")))
            #expect(
                frames(try await bobSocket.frames(through: .message), ofType: .typing, as: TypingFrame.self).count
                    == 1)
        }
    }

    @Test(
        "presence says online when the first device connects and nothing while another device or a quick reconnect keeps the user online"
    )
    func presenceDoesNotFlap() async throws {
        let grace = 2
        let time = ManualTime()
        try await withTestServer(time: time, { $0.presenceGrace = grace }) { server in
            let ann = try await server.register("ann")
            let bob = try await server.register("bob")
            let bobSocket = try await server.modernClient(bob)
            _ = try await bobSocket.next(.resumed, as: ResumedFrame.self)
            let annPhone = try await server.modernClient(ann)
            let online = try await bobSocket.next(.presence, as: PresenceFrame.self)
            #expect(online.users == [PresenceEntry(id: ann.user.id, online: true, lastSeen: nil)])
            // A second device, the first one closing, then a reconnect within the grace period.
            let annLaptop = try await server.modernClient(ann)
            await annPhone.close()
            await annLaptop.close()
            let annAgain = try await server.modernClient(ann)
            _ = try await annAgain.next(.resumed, as: ResumedFrame.self)
            // Past the grace period (every grace check started by the closes has run out), ann types: bob hears the
            // typing and no presence change before it.
            for _ in 0..<10 {
                time.advance(by: .seconds(grace))
                try await Task.sleep(for: .milliseconds(20))
            }
            try await annAgain.send(.typing(TypingRequest(room: "lobby")))
            let before = try await bobSocket.frames(through: .typing)
            #expect(frames(before, ofType: .presence, as: PresenceFrame.self).isEmpty)
        }
    }

    @Test(
        "presence goes only through rooms of at most --presence-room-limit members: a larger lobby carries none, a DM does, and my snapshot lists me"
    )
    func presenceThroughSmallRooms() async throws {
        let time = ManualTime()
        try await withTestServer(
            time: time,
            {
                $0.presenceGrace = 1
                $0.presenceRoomLimit = 3
            }
        ) { server in
            // Four accounts make the lobby larger than the limit; ann and bob also share a DM of two.
            let (ann, bob, dm, annSocket, bobSocket) = try await server.pair()
            let cy = try await server.register("cyd")
            let dan = try await server.register("dan")
            #expect(dm.kind == .known(.direct))
            // Cyd shares only the lobby with anyone: her snapshot lists herself alone.
            let cySocket = try await WebSocketTestClient.connect(
                host: server.host, port: server.httpPort, path: "/api/v1/ws?token=\(cy.token)")
            _ = try await cySocket.next(.hello, as: HelloFrame.self)
            let cySnapshot = try await cySocket.next(.presence, as: PresenceFrame.self)
            #expect(cySnapshot.users == [PresenceEntry(id: cy.user.id, online: true, lastSeen: nil)])
            // Dan connecting and cyd leaving are told to nobody; ann leaving is told to bob, through their DM.
            let danSocket = try await server.modernClient(dan)
            _ = try await danSocket.next(.resumed, as: ResumedFrame.self)
            await cySocket.close()
            await annSocket.close()
            // Bob's snapshot listed ann; her connect's own news may still come, and says the same.
            let offline = try await Self.firstChange(on: bobSocket, besidesOnline: ann.user.id, moving: time)
            #expect(offline.users.map(\.id) == [ann.user.id] && !offline.users[0].online)
            // Nothing about cyd or dan came before it or comes after: dan types in the lobby, and bob hears only that.
            try await danSocket.send(.typing(TypingRequest(room: "lobby")))
            #expect(
                frames(try await bobSocket.frames(through: .typing), ofType: .presence, as: PresenceFrame.self).isEmpty)
            // Outside a small room, a member's presence is still there to ask for.
            let details = try await server.api.send(.GET, "/users/\(dan.user.id)", token: bob.token).decode(
                UserDetails.self)
            #expect(details.online)
        }
    }

    @Test("a DM opened by someone else appears on my open connection, with its first message; leaving stops it")
    func joinedAndLeft() async throws {
        try await withTestServer { server in
            let ann = try await server.register("ann")
            let bob = try await server.register("bob")
            let bobSocket = try await server.modernClient(bob)
            _ = try await bobSocket.next(.resumed, as: ResumedFrame.self)
            let annSocket = try await server.modernClient(ann)
            let dm = try await server.api.send(.POST, "/dms", json: UsernameRequest(username: "bob"), token: ann.token)
                .decode(RoomSummary.self)
            _ = try await annSocket.acked(
                .send(SendRequest(room: dm.id, clientMsgID: "first", text: "hello bob")))
            let joined = try await bobSocket.next(.joined, as: JoinedFrame.self)
            #expect(
                joined.room.id == dm.id && joined.room.kind == .known(.direct) && joined.room.peer?.username == "ann")
            let first = try await bobSocket.next(.message, as: MessageFrame.self)
            #expect(first.room == dm.id && first.text == "hello bob")

            let group = try await server.api.send(
                .POST, "/rooms", json: CreateRoomRequest(kind: "group", name: "Team", members: ["bob"]),
                token: ann.token
            ).decode(RoomSummary.self)
            #expect(try await bobSocket.next(.joined, as: JoinedFrame.self).room.id == group.id)
            #expect(try await server.api.send(.POST, "/rooms/\(group.id)/leave", token: bob.token).status == 204)
            #expect(try await bobSocket.next(.left, as: LeftFrame.self).room == group.id)
            _ = try await annSocket.acked(.send(SendRequest(room: group.id, clientMsgID: "g1", text: "gone?")))
            _ = try await annSocket.acked(.send(SendRequest(room: dm.id, clientMsgID: "d2", text: "still here")))
            #expect(try await bobSocket.next(.message, as: MessageFrame.self).text == "still here")
        }
    }

    @Test("the demo bot answers a direct message over the same protocol as anyone")
    func demoBot() async throws {
        try await withTestServer({ $0.demoBot = true }) { server in
            try await Self.expectBotAnswers(on: server, as: "ann")
        }
    }

    /// What can happen to the demo bot's token file between two starts.
    enum LostSecret: String, CaseIterable, CustomTestStringConvertible {
        /// The file is gone.
        case deleted
        /// The file holds a token the server refuses: another node took the bot over without it, and made its own.
        case refused
        var testDescription: String { self.rawValue }
    }

    @Test(
        "the demo bot gets its account back when its token file is lost or its token refused: a new token, and it answers",
        arguments: LostSecret.allCases)
    func demoBotLostSecret(_ lost: LostSecret) async throws {
        let directory = TestServer.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try await TestServer.start(dataDirectory: directory) { $0.demoBot = true }
        try await Self.expectBotAnswers(on: first, as: "ann")
        await first.stop()
        let secret = URL(fileURLWithPath: directory + "/echo-bot.secret")
        switch lost {
        case .deleted: try FileManager.default.removeItem(at: secret)
        case .refused: try Data("a token the server no longer knows".utf8).write(to: secret)
        }
        let second = try await TestServer.start(dataDirectory: directory) { $0.demoBot = true }
        try await Self.expectBotAnswers(on: second, as: "bob")
        await second.stop()
    }

    /// Registers `username`, opens a DM with echo-bot (once the bot exists) and checks its answer.
    static func expectBotAnswers(on server: TestServer, as username: String) async throws {
        let me = try await server.register(username)
        let socket = try await server.modernClient(me)
        var dm: RoomSummary?
        try await eventually("echo-bot has an account") {
            let reply = try await server.api.send(
                .POST, "/dms", json: UsernameRequest(username: "echo-bot"), token: me.token)
            if reply.status == 200 { dm = try reply.decode(RoomSummary.self) }
            return dm != nil
        }
        let room = try #require(dm)
        #expect(room.peer?.bot == true, "echo-bot is a bot like anyone's")
        _ = try await socket.next(.joined, as: JoinedFrame.self)
        _ = try await socket.acked(.send(SendRequest(room: room.id, clientMsgID: "q", text: "I like you")))
        while true {
            let message = try await socket.next(.message, as: MessageFrame.self, timeout: .seconds(15))
            if message.sender.name == "echo-bot" {
                #expect(message.text == "you like I" && message.room == room.id)
                return
            }
        }
    }

    @Test("echo-bot is a reserved name: nobody can register it, and with the bot off nobody answers for it")
    func demoBotNameIsReserved() async throws {
        try await withTestServer({ $0.demoBot = false }) { server in
            let ann = try await server.register("ann")
            for name in ["echo-bot", "Echo-Bot"] {
                let taken = try await server.api.send(
                    .POST, "/register", json: RegisterRequest(username: name, password: "pretend to be a bot"))
                #expect(taken.status == 409)
                #expect(try taken.decode(APIErrorBody.self).code == .usernameTaken)
            }
            let dm = try await server.api.send(
                .POST, "/dms", json: UsernameRequest(username: "echo-bot"), token: ann.token)
            #expect(dm.status == 404)
            #expect(try dm.decode(APIErrorBody.self).code == .unknownUser)
        }
    }

    /// Whether the frame only says again that `user` is online, as a snapshot already did: a change that raced the
    /// snapshot may (PROTOCOL.md §9.5).
    static func repeatsOnline(_ frame: PresenceFrame, _ user: UUID) -> Bool {
        frame.users.allSatisfy { $0.id == user && $0.online }
    }

    /// The first presence frame on `socket` that is not such a repeat about `user`, moving `time` until it comes.
    static func firstChange(
        on socket: WebSocketTestClient, besidesOnline user: UUID, moving time: ManualTime
    ) async throws -> PresenceFrame {
        try await Self.moving(time) { () -> PresenceFrame? in
            while let frame = try? await socket.next(.presence, as: PresenceFrame.self, timeout: .milliseconds(100)) {
                if !Self.repeatsOnline(frame, user) { return frame }
            }
            return nil
        }
    }

    /// Moves `time` a second at a time until `result` gives a value (each try waits a little real time), so timers
    /// started before run out without the test knowing exactly when they started.
    static func moving<T>(_ time: ManualTime, until result: () async -> T?) async throws -> T {
        for _ in 0..<60 {
            time.advance(by: .seconds(1))
            if let value = await result() { return value }
        }
        throw TestClientError("nothing happened in 60 s of test time")
    }

}
