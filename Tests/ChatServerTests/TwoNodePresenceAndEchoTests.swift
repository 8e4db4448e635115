import ChatPersistence
import ChatProtocol
import ChatServer
import ChatTestSupport
import Foundation
import NIOConcurrencyHelpers
import NIOHTTP1
import Testing

extension TwoNodeTests {
    @Test(
        "presence is per account across nodes: online with the first connection anywhere, offline when the last one goes, and when its node stops"
    )
    func presenceAcrossNodes() async throws {
        let database = try await TestServer.makePostgresDatabase()
        let fast: (inout ServerConfiguration) -> Void = {
            $0.presenceGrace = 1
            $0.presenceTTL = 4
        }
        try await self.withTwoNodes(on: database, fast) { nodeA, nodeB in
            let ann = try await nodeA.register("ann")
            let bob = try await nodeA.register("bob")
            let dm = try await nodeA.api.send(.POST, "/dms", json: UsernameRequest(username: "bob"), token: ann.token)
                .decode(RoomSummary.self)
            let bobSocket = try await nodeB.modernClient(bob)
            _ = try await bobSocket.next(.resumed, as: ResumedFrame.self)

            // Ann comes online on A: Bob, on B, hears it, and B's API says so.
            let annOnA = try await nodeA.modernClient(ann)
            _ = try await annOnA.next(.resumed, as: ResumedFrame.self)
            #expect(try await bobSocket.next(.presence, as: PresenceFrame.self).users == [Self.online(ann)])
            let details = try await nodeB.api.send(.GET, "/users/\(ann.user.id)", token: bob.token)
                .decode(UserDetails.self)
            #expect(details.online)
            // Bob's second device, on B too, lists her in its snapshot.
            let bobTablet = try await nodeB.modernClient(bob)
            #expect(try await bobTablet.next(.presence, as: PresenceFrame.self).users.contains(Self.online(ann)))
            await bobTablet.close()

            // Her phone on B, then A's connection closing: she stays online, and Bob hears nothing of it.
            let annOnB = try await nodeB.modernClient(ann)
            _ = try await annOnB.next(.resumed, as: ResumedFrame.self)
            await annOnA.close()
            try await Task.sleep(for: .seconds(2))  // past A's grace period
            _ = try await annOnB.acked(.send(SendRequest(room: dm.id, clientMsgID: "p1", text: "still here")))
            let quiet = try await bobSocket.frames(through: .message)
            #expect(frames(quiet, ofType: .presence, as: PresenceFrame.self).isEmpty)

            // The last connection closes: offline, with when she was last seen.
            await annOnB.close()
            let offline = try await bobSocket.next(.presence, as: PresenceFrame.self, timeout: .seconds(10))
            #expect(offline.users.count == 1 && offline.users[0].id == ann.user.id && !offline.users[0].online)
            #expect(offline.users[0].lastSeen != nil)

            // A third node stops while Ann is connected to it: its rows expire, and a node that sweeps them says
            // she is offline.
            try await withTestServer({
                $0.databaseURL = database
                $0.nodeName = "C"
                fast(&$0)
            }) { nodeC in
                let annOnC = try await nodeC.modernClient(ann)
                _ = try await annOnC.next(.resumed, as: ResumedFrame.self)
                #expect(try await bobSocket.next(.presence, as: PresenceFrame.self).users == [Self.online(ann)])
            }
            let gone = try await bobSocket.next(.presence, as: PresenceFrame.self, timeout: .seconds(15))
            #expect(gone.users.count == 1 && gone.users[0].id == ann.user.id && !gone.users[0].online)
            let after = try await nodeB.api.send(.GET, "/users/\(ann.user.id)", token: bob.token)
                .decode(UserDetails.self)
            #expect(!after.online)
        }
    }

    @Test(
        "presence rows follow the connections: a row lost, or swept while its node could not refresh it, is written again and the account is online"
    )
    func presenceRowsRepaired() async throws {
        let database = try await TestServer.makePostgresDatabase()
        try await self.withTwoNodes(
            on: database,
            {
                $0.presenceGrace = 1
                $0.presenceTTL = 4
            }
        ) { nodeA, nodeB in
            let ann = try await nodeA.register("ann")
            let bob = try await nodeA.register("bob")
            _ = try await nodeA.api.send(.POST, "/dms", json: UsernameRequest(username: "bob"), token: ann.token)
            let bobSocket = try await nodeB.modernClient(bob)
            _ = try await bobSocket.next(.resumed, as: ResumedFrame.self)
            let annOnA = try await nodeA.modernClient(ann)
            _ = try await annOnA.next(.resumed, as: ResumedFrame.self)
            #expect(try await bobSocket.next(.presence, as: PresenceFrame.self).users == [Self.online(ann)])
            let annIsOnline = { @Sendable in
                try await nodeB.api.send(.GET, "/users/\(ann.user.id)", token: bob.token).decode(UserDetails.self)
                    .online
            }

            // A write that never happened (the database failed at that moment): the next heartbeat writes it.
            try await TestPostgres.shared().psql(
                "DELETE FROM presence WHERE account = '\(ann.user.id)'", database: database.database)
            try await eventually("A writes Ann's row again", within: .seconds(10)) { try await annIsOnline() }

            // A's row expired, as when A could not reach the database for longer than the TTL: whichever comes
            // first, A's heartbeat or a sweep (which tells Bob she is offline), she ends up online, and Bob is told.
            try await TestPostgres.shared().psql(
                "UPDATE presence SET expires_at = now() - interval '1 second' WHERE account = '\(ann.user.id)'",
                database: database.database)
            try await eventually("Ann is online again", within: .seconds(10)) { try await annIsOnline() }
            var latest: PresenceEntry?
            while let frame = try? await bobSocket.next(.presence, as: PresenceFrame.self, timeout: .seconds(3)) {
                latest = frame.users.last { $0.id == ann.user.id } ?? latest
            }
            #expect(latest == nil || latest?.online == true)

            // And her last connection closing still says offline, once.
            await annOnA.close()
            let offline = try await bobSocket.next(.presence, as: PresenceFrame.self, timeout: .seconds(10))
            #expect(offline.users.count == 1 && offline.users[0].id == ann.user.id && !offline.users[0].online)
            #expect(try await !annIsOnline())
        }
    }

    private static func online(_ account: AuthSession) -> PresenceEntry {
        PresenceEntry(id: account.user.id, online: true, lastSeen: nil)
    }

    @Test("/echo crosses nodes: text and binary frames reach the other node's clients byte-identical, in order")
    func echoAcrossNodes() async throws {
        try await self.withTwoNodes { nodeA, nodeB in
            let aries = try await nodeA.echoClient("aries")
            let leo = try await nodeB.echoClient("leo")
            let json = #"{"tag":1,"name":"aries","text":"hello","type":0}"#
            try await aries.send(text: json)
            let text = try #require(await leo.frames.next(timeout: .seconds(10)))
            #expect(text.opcode == WebSocketTestClient.Opcode.text && text.text == json)
            // The sender has its own frame back, once.
            #expect(try #require(await aries.frames.next()).text == json)
            // A photo as base64 in a binary frame (larger than a notification can carry), then ten small frames.
            let image = Array(
                Data((0..<(300 << 10)).map { UInt8(truncatingIfNeeded: $0 &* 31) }).base64EncodedString().utf8)
            try await leo.send(opcode: WebSocketTestClient.Opcode.binary, payload: image)
            for index in 1...10 { try await leo.send(text: "after \(index)") }
            let photo = try #require(await aries.frames.next(timeout: .seconds(10)))
            #expect(photo.opcode == WebSocketTestClient.Opcode.binary && photo.payload == image)
            for index in 1...10 {
                #expect(try #require(await aries.frames.next(timeout: .seconds(10))).text == "after \(index)")
            }
            #expect(await aries.frames.next(timeout: .milliseconds(300)) == nil)
        }
    }
}

extension TwoNodeTests {
    @Test("an image uploaded and sent through A is fetched through B from the directory both nodes share")
    func attachmentAcrossNodes() async throws {
        try await self.withTwoNodes { nodeA, nodeB in
            let (ann, bob, dm, annSocket, bobSocket) = try await nodeA.pair(bobConnectedTo: nodeB)
            let (png, attachment) = try await nodeA.sendImage(as: ann, on: annSocket, in: dm.id, clientMsgID: "a1")
            #expect(try await bobSocket.nextEvent(.message).attachments == [attachment])
            let fetched = try await nodeB.api.get("/attachments/\(attachment.id)", token: bob.token)
            #expect(fetched.status == 200 && Array(fetched.body) == png)
        }
    }
}

extension TwoNodeTests {
    @Test(
        "with the demo bot on in both nodes, one of them runs it: a message to echo-bot gets one answer, on either node"
    )
    func demoBotOnOneNode() async throws {
        try await self.withTwoNodes({ $0.demoBot = true }) { nodeA, nodeB in
            for (node, name) in [(nodeA, "ann"), (nodeB, "bob")] {
                try await LiveStateTests.expectBotAnswers(on: node, as: name)
            }
            // A second bot would have answered too (and each would have signed the other out).
            let carol = try await nodeB.register("carol")
            let socket = try await nodeB.modernClient(carol)
            _ = try await socket.next(.resumed, as: ResumedFrame.self)
            let dm = try await nodeB.api.send(
                .POST, "/dms", json: UsernameRequest(username: "echo-bot"), token: carol.token
            ).decode(RoomSummary.self)
            _ = try await socket.acked(.send(SendRequest(room: dm.id, clientMsgID: "c1", text: "you and me")))
            var answers = 0
            while let text = try? await socket.nextText(timeout: .seconds(4)) {
                if case .message(let message, _) = try? ServerMessage.decode(Data(text.utf8)),
                    message.sender.name == "echo-bot"
                {
                    #expect(message.text == "I and you")
                    answers += 1
                }
            }
            #expect(answers == 1)
        }
    }
}

extension TwoNodeTests {
    @Test(
        "--attachments-store postgres: nodes with directories of their own serve each other's uploads, whole and by byte range"
    )
    func attachmentsInPostgres() async throws {
        let directories = NIOLockedValueBox<[String]>([])
        try await self.withTwoNodes({
            let own = TestServer.makeTemporaryDirectory()
            directories.withLockedValue { $0.append(own) }
            $0.attachmentsPath = own
            $0.attachmentsShared = false
            $0.attachmentsStore = "postgres"
        }) { nodeA, nodeB in
            let (ann, bob, dm, annSocket, bobSocket) = try await nodeA.pair(bobConnectedTo: nodeB)
            let (png, image) = try await nodeA.sendImage(as: ann, on: annSocket, in: dm.id, clientMsgID: "a1")
            #expect(try await bobSocket.nextEvent(.message).attachments == [image])
            let fetched = try await nodeB.api.get("/attachments/\(image.id)", token: bob.token)
            #expect(fetched.status == 200 && Array(fetched.body) == png)

            // A file of three chunks and a bit, uploaded through B: ranges across a chunk's end, from the start,
            // and the tail, read through A.
            let file = (0..<(3 * 256 * 1024 + 1000)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 11) }
            let upload = try await nodeB.api.send(
                .POST, "/attachments?name=data.bin", bytes: file, contentType: "application/octet-stream",
                token: bob.token
            ).decode(AttachmentPayload.self)
            _ = try await bobSocket.acked(
                .send(SendRequest(room: dm.id, clientMsgID: "b1", text: "", attachments: [upload.id.uuidString]))
            )
            let whole = try await nodeA.api.get("/attachments/\(upload.id)", token: ann.token)
            #expect(whole.status == 200 && Array(whole.body) == file)
            for (header, expected) in [
                ("bytes=262000-262300", 262000...262300), ("bytes=0-9", 0...9),
                ("bytes=-100", (file.count - 100)...(file.count - 1)),
                ("bytes=786000-", 786000...(file.count - 1)),
            ] {
                let part = try await nodeA.api.get(
                    "/attachments/\(upload.id)", token: ann.token, headers: [("Range", header)])
                #expect(part.status == 206 && Array(part.body) == Array(file[expected]), "\(header)")
                #expect(
                    part.headers.first(name: "Content-Range")
                        == "bytes \(expected.lowerBound)-\(expected.upperBound)/\(file.count)")
            }
            let outside = try await nodeA.api.get(
                "/attachments/\(upload.id)", token: ann.token, headers: [("Range", "bytes=\(file.count)-")])
            #expect(outside.status == 416)
        }
        // No node kept a file of its own: the bytes are in the database only.
        for directory in directories.withLockedValue({ $0 }) {
            let contents = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            #expect(contents.allSatisfy { $0 == "tmp" }, "\(directory): \(contents)")
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    @Test("--attachments-store postgres without --database-url is refused, naming the setting")
    func attachmentsInPostgresNeedADatabase() throws {
        #expect(throws: ServerConfiguration.InvalidSettings.self) {
            try ServerConfiguration.resolve(arguments: ["--attachments-store", "postgres"], environment: [:])
        }
        #expect(throws: ServerConfiguration.InvalidSettings.self) {
            try ServerConfiguration.resolve(arguments: ["--attachments-store", "s3"], environment: [:])
        }
    }
}
