import ChatPersistence
import ChatProtocol
import ChatServer
import ChatTestSupport
import Foundation
import NIOHTTP1
import Testing

/// `chat-server migrate-to-postgres` (docs/DEPLOYMENT.md): a SQLite installation moved to PostgreSQL serves the same
/// accounts, rooms, history and read positions, and goes on numbering where it stopped.
@Suite("Moving a SQLite installation to PostgreSQL")
struct PostgresMigrationTests {
    @Test(
        "migrate-to-postgres copies accounts, tokens, rooms, messages with their seqs, edits, reactions, reads and attachments; it refuses a running server and a database that is not empty"
    )
    func migrateToPostgres() async throws {
        let directory = TestServer.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let executable = try #require(ServerProcess.executableURL)
        let url = try await TestPostgres.shared().makeDatabase().url
        let database = try DatabaseURL(url)
        let migrate = ["migrate-to-postgres", "--from", directory + "/chat.sqlite", "--database-url", url]

        // A community on SQLite: a DM with an edit, a reaction and a read position, a group, the lobby.
        let source = try await TestServer.start(dataDirectory: directory) { $0.databaseURL = nil }
        let (ann, bob, dm, annSocket, bobSocket) = try await source.pair()
        var acks: [AckFrame] = []
        for (index, text) in ["one", "two", "three"].enumerated() {
            acks.append(
                try await annSocket.acked(.send(SendRequest(room: dm.id, clientMsgID: "m\(index)", text: text))))
        }
        _ = try await annSocket.acked(
            .edit(EditRequest(room: dm.id, clientMsgID: "e1", target: acks[1].seq, text: "two, edited")))
        _ = try await bobSocket.acked(
            .react(ReactRequest(room: dm.id, clientMsgID: "r1", target: acks[0].seq, emoji: "👍")))
        try await bobSocket.send(.read(ReadRequest(room: dm.id, seq: acks[1].seq)))
        // An image, whose file the operator copies (here: the target serves the source's directory).
        let (png, image) = try await source.sendImage(as: ann, on: annSocket, in: dm.id, clientMsgID: "i1", side: 8)
        let group = try await source.api.send(
            .POST, "/rooms", json: CreateRoomRequest(kind: "group", name: "Team", members: ["bob"]), token: ann.token
        ).decode(RoomSummary.self)
        _ = try await annSocket.acked(.send(SendRequest(room: group.id, clientMsgID: "g1", text: "team")))
        let luke = try await source.joinedLineClient("luke")
        try await luke.write("msg:hello lobby\n")
        try await luke.waitForLine("luke:hello lobby")
        try await eventually {
            let rooms = try? await source.api.send(.GET, "/rooms", token: bob.token).decode([RoomSummary].self)
            return rooms?.first { $0.id == dm.id }?.lastReadSeq == acks[1].seq
        }
        let before = try await Self.snapshot(of: source, for: bob, rooms: [dm.id, group.id, "lobby"])

        // Refused while the server runs: it holds the data directory.
        let running = try await runToEnd(executable, arguments: migrate, withStandardError: true)
        #expect(running.status != 0 && running.output.contains("stop the server first"), "\(running.output)")
        await source.stop()

        let moved = try await runToEnd(executable, arguments: migrate, withStandardError: true)
        #expect(moved.status == 0, "\(moved.output)")
        #expect(moved.output.contains("every count verified"), "\(moved.output)")
        // A second run finds a chat there and copies nothing.
        let again = try await runToEnd(executable, arguments: migrate, withStandardError: true)
        #expect(again.status != 0 && again.output.contains("already holds a chat"), "\(again.output)")

        try await withTestServer({
            $0.databaseURL = database
            $0.attachmentsPath = directory + "/attachments"
        }) { target in
            // Sessions go on: Bob's token from the SQLite server works here, for the API and for the image.
            let stillBob = try await target.api.send(.GET, "/me", token: bob.token)
            #expect(stillBob.status == 200)
            let fetched = try await target.api.get("/attachments/\(image.id)", token: bob.token)
            #expect(fetched.status == 200 && Array(fetched.body) == png)
            let login = try await target.api.send(
                .POST, "/login", json: LoginRequest(username: "bob", password: "correct horse"))
            #expect(login.status == 200)
            let bobThere = try login.decode(AuthSession.self)
            #expect(bobThere.user.id == bob.user.id)
            let after = try await Self.snapshot(of: target, for: bobThere, rooms: [dm.id, group.id, "lobby"])
            #expect(after == before)
            // The copied messages are found by search, as edited.
            let found = try await target.search("edited", token: bobThere.token).results.map(\.message.text)
            #expect(found == ["two, edited"])
            // New messages are numbered after the copied ones.
            let annThere = try await target.api.send(
                .POST, "/login", json: LoginRequest(username: "ann", password: "correct horse")
            ).decode(AuthSession.self)
            let socket = try await target.modernClient(annThere)
            let next = try await socket.acked(.send(SendRequest(room: dm.id, clientMsgID: "n1", text: "moved")))
            #expect(next.seq == acks[2].seq + 4)  // after the edit, the reaction and the image
        }

        // With --attachments-store postgres the bytes move into the database too. Looking for them in the wrong
        // directory stops the copy and keeps nothing: the second run is not refused as "already holds a chat".
        let bytesURL = try await TestPostgres.shared().makeDatabase().url
        let intoBytes = ["migrate-to-postgres", "--from", directory + "/chat.sqlite", "--database-url", bytesURL]
        let emptyDirectory = TestServer.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: emptyDirectory) }
        let missing = try await runToEnd(
            executable,
            arguments: intoBytes + ["--attachments-store", "postgres", "--attachments-dir", emptyDirectory],
            withStandardError: true)
        #expect(
            missing.status != 0 && missing.output.contains("attachment content")
                && missing.output.contains("nothing was kept"),
            "\(missing.output)")
        let intoDatabase = try await runToEnd(
            executable, arguments: intoBytes + ["--attachments-store", "postgres"], withStandardError: true)
        #expect(intoDatabase.status == 0, "\(intoDatabase.output)")
        #expect(intoDatabase.output.contains("1 attachment contents"), "\(intoDatabase.output)")
        try await withTestServer({
            $0.databaseURL = try? DatabaseURL(bytesURL)
            $0.attachmentsPath = emptyDirectory
            $0.attachmentsStore = "postgres"
        }) { target in
            let fetched = try await target.api.get("/attachments/\(image.id)", token: bob.token)
            #expect(fetched.status == 200 && Array(fetched.body) == png)
            #expect(try await Self.snapshot(of: target, for: bob, rooms: [dm.id, group.id, "lobby"]) == before)
        }
    }

    /// What a member sees of `rooms` (dates to the second: PostgreSQL keeps microseconds where SQLite kept more).
    struct Snapshot: Equatable {
        var summaries: [String]
        var pages: [[String]]
    }

    static func snapshot(of server: TestServer, for account: AuthSession, rooms: [String]) async throws -> Snapshot {
        let summaries = try await server.api.send(.GET, "/rooms", token: account.token).decode([RoomSummary].self)
            .filter { rooms.contains($0.id) }.sorted { $0.id < $1.id }
            .map {
                "\($0.id) \($0.kind) \($0.name) latest=\($0.latestSeq) read=\($0.lastReadSeq) unread=\($0.unreadCount)"
            }
        var pages: [[String]] = []
        for room in rooms {
            let page = try await server.api.send(.GET, "/rooms/\(room)/messages?limit=100", token: account.token)
                .decode(HistoryPage.self)
            pages.append(
                page.messages.map {
                    "\($0.seq) \($0.id) \($0.kind) \($0.sender.id) \($0.text) \($0.date / 1000) edited=\($0.editedAt != nil) reactions=\($0.reactions?.map(\.emoji) ?? []) attachments=\($0.attachments?.map(\.id) ?? [])"
                })
        }
        return Snapshot(summaries: summaries, pages: pages)
    }
}
