import ChatProtocol
import ChatServer
import ChatTestSupport
import Foundation
import NIOHTTP1
import Testing

/// A small deterministic random number generator, so a chaos run can be repeated from its seed.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        self.state &+= 0x9E37_79B9_7F4A_7C15
        var z = self.state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// One user's client as the chaos test models it: what it has seen per room, and what it still has to get acked.
final class ChaosClient {
    let session: AuthSession
    var socket: WebSocketTestClient?
    /// Per room, the messages seen, in order; a message must always be the next seq.
    var seen: [String: [MessagePayload]] = [:]
    /// Sent but not yet acknowledged: clientMsgID → (room, text).
    var outbox: [String: (room: String, text: String)] = [:]
    var acked: Set<String> = []
    var problems: [String] = []

    init(session: AuthSession) {
        self.session = session
    }

    func lastSeq(_ room: String) -> Int64 { self.seen[room]?.last?.seq ?? 0 }

    /// Connects and resumes every room from what it has seen, then resends everything unacknowledged. A node that
    /// is down (killed a moment ago) leaves the client disconnected, to try again later.
    func connect(to port: Int, rooms: [String]) async {
        guard
            let socket = try? await WebSocketTestClient.connect(
                host: "127.0.0.1", port: port, path: "/api/v1/ws?token=\(self.session.token)")
        else { return }
        self.socket = socket
        await self.send(
            .resume(ResumeRequest(rooms: Dictionary(uniqueKeysWithValues: rooms.map { ($0, self.lastSeq($0)) }))))
        for (id, pending) in self.outbox.sorted(by: { $0.key < $1.key }) {
            await self.send(.send(SendRequest(room: pending.room, clientMsgID: id, text: pending.text)))
        }
    }

    /// Sends on the open connection; one that fails (its node was killed) counts as cut.
    func send(_ message: ClientMessage) async {
        guard let socket = self.socket else { return }
        do {
            try await socket.send(message)
        } catch {
            await self.cut()
        }
    }

    func cut() async {
        await self.socket?.reset()
        self.socket = nil
    }

    /// Reads whatever has arrived until the connection has been quiet for `quiet`.
    func absorb(quiet: Duration = .milliseconds(40)) async {
        guard let socket = self.socket else { return }
        while true {
            guard let frame = await socket.frames.next(timeout: quiet) else {
                // Quiet, or the connection is gone (a killed node sends no close frame).
                if socket.frames.isFinished { self.socket = nil }
                return
            }
            guard frame.opcode == WebSocketTestClient.Opcode.text else {
                if frame.opcode == WebSocketTestClient.Opcode.close {
                    self.socket = nil
                    return
                }
                continue
            }
            switch try? ServerMessage.decode(Data(frame.payload)) {
            case .message(let message, _):
                let expected = self.lastSeq(message.room) + 1
                if message.seq != expected {
                    self.problems.append(
                        "\(self.session.user.username) got seq \(message.seq) in \(message.room), expected \(expected)")
                } else {
                    self.seen[message.room, default: []].append(message)
                }
            case .ack(let ack):
                self.outbox[ack.clientMsgID] = nil
                self.acked.insert(ack.clientMsgID)
            case .error(let error) where error.code != .rateLimited:
                self.problems.append("\(self.session.user.username) got error \(error.code) for \(error.ref ?? "-")")
            default:
                break
            }
        }
    }
}

/// Where the chaos clients connect: one in-process server, or two `chat-server` processes on one PostgreSQL
/// database, which the chaos kills (SIGKILL) and starts again.
final class ChaosNodes {
    private(set) var ports: [Int]
    private var processes: [ServerProcess]
    private let arguments: [String]
    private let directories: [String]
    private(set) var kills = 0

    /// The in-process server: nothing to kill.
    init(_ server: TestServer) {
        self.ports = [server.httpPort]
        self.processes = []
        self.arguments = []
        self.directories = []
    }

    /// Two nodes on `database`, each with a data directory of its own.
    init(twoNodesOn database: String) async throws {
        self.arguments = ["--bcrypt-cost", "4", "--database-url", database, "--attachments-shared", "true"]
        self.directories = [TestServer.makeTemporaryDirectory(), TestServer.makeTemporaryDirectory()]
        var processes: [ServerProcess] = []
        for directory in self.directories {
            processes.append(try await ServerProcess.start(dataDirectory: directory, arguments: self.arguments))
        }
        self.processes = processes
        self.ports = processes.map(\.httpPort)
    }

    var api: APIClient { APIClient(host: "127.0.0.1", port: self.ports[0]) }
    var canKill: Bool { !self.processes.isEmpty }

    func port(using random: inout SplitMix64) -> Int { self.ports.randomElement(using: &random)! }

    /// SIGKILL of one node while its clients send, then the node started again (on new ports).
    func killAndRestart(_ index: Int) async throws {
        await self.processes[index].kill()
        self.kills += 1
        self.processes[index] = try await ServerProcess.start(
            dataDirectory: self.directories[index], arguments: self.arguments)
        self.ports[index] = self.processes[index].httpPort
    }

    func stop() async {
        for process in self.processes { _ = await process.terminate() }
        for directory in self.directories { try? FileManager.default.removeItem(atPath: directory) }
    }
}

@Suite("Chaos: random disconnects lose nothing and repeat nothing (PROTOCOL.md §8.2–8.3)")
struct ChaosTests {
    /// `CHAOS_SEED` and `CHAOS_STEPS` run other or longer scenarios; the suite's own run uses a fixed seed.
    static var seed: UInt64 { ProcessInfo.processInfo.environment["CHAOS_SEED"].flatMap(UInt64.init) ?? 20_261_122 }
    static var steps: Int { ProcessInfo.processInfo.environment["CHAOS_STEPS"].flatMap(Int.init) ?? 120 }

    @Test func everyViewEqualsTheDatabase() async throws {
        try await withTestServer { server in
            try await Self.run(on: ChaosNodes(server))
        }
    }

    @Test("two nodes on PostgreSQL, with random cuts and random SIGKILLs of a node: every view equals the database")
    func twoNodesWithKills() async throws {
        let nodes = try await ChaosNodes(twoNodesOn: try await TestPostgres.shared().makeDatabase().url)
        do {
            try await Self.run(on: nodes)
            #expect(nodes.kills > 0)
        } catch {
            await nodes.stop()
            throw error
        }
        await nodes.stop()
    }

    /// Random sends, cuts and (where possible) node kills by three users in three rooms, then everyone settles:
    /// each client's view of each room must be the database's, complete, in order, every send stored once.
    static func run(on nodes: ChaosNodes) async throws {
        // setup: three users, a channel, a DM, the lobby.
        var random = SplitMix64(state: Self.seed)
        let api = nodes.api  // before any kill
        var sessions: [AuthSession] = []
        for name in ["ann", "bob", "cat"] {
            sessions.append(
                try await api.send(.POST, "/register", json: RegisterRequest(username: name, password: "correct horse"))
                    .decode(AuthSession.self))
        }
        let (ann, bob, cat) = (sessions[0], sessions[1], sessions[2])
        let channel = try await api.send(
            .POST, "/rooms", json: CreateRoomRequest(kind: "channel", name: "chaos", members: ["bob", "cat"]),
            token: ann.token
        ).decode(RoomSummary.self)
        let dm = try await api.send(.POST, "/dms", json: UsernameRequest(username: "bob"), token: ann.token)
            .decode(RoomSummary.self)
        let clients = [ChaosClient(session: ann), ChaosClient(session: bob), ChaosClient(session: cat)]
        let roomsOf = [["lobby", channel.id, dm.id], ["lobby", channel.id, dm.id], ["lobby", channel.id]]
        var counter = 0

        // act: random sends, cuts before acks, cuts right after resuming, reconnects with retries, node kills.
        for _ in 0..<Self.steps {
            if nodes.canKill, Int.random(in: 0..<40, using: &random) == 0 {
                try await nodes.killAndRestart(Int.random(in: 0..<nodes.ports.count, using: &random))
                continue
            }
            let index = Int.random(in: 0..<clients.count, using: &random)
            let client = clients[index]
            if client.socket == nil {
                await client.connect(to: nodes.port(using: &random), rooms: roomsOf[index])
                if Int.random(in: 0..<4, using: &random) == 0 { await client.cut() }  // mid-resume
                continue
            }
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<6:
                counter += 1
                let id = "\(client.session.user.username)-\(counter)"
                let room = roomsOf[index].randomElement(using: &random)!
                client.outbox[id] = (room, "message \(counter)")
                await client.send(.send(SendRequest(room: room, clientMsgID: id, text: "message \(counter)")))
                if Int.random(in: 0..<3, using: &random) == 0 { await client.cut() }  // before the ack
            case 6..<8:
                await client.absorb(quiet: .milliseconds(5))
                await client.cut()  // after some acks
            default:
                await client.absorb(quiet: .milliseconds(5))
            }
        }

        // settle: everyone reconnects until every send is acknowledged and nothing more arrives.
        // (A send refused as rate limited stays in the outbox; reconnecting resends it with the same id.)
        for _ in 0..<30 where clients.contains(where: { !$0.outbox.isEmpty || $0.socket == nil }) {
            for (index, client) in clients.enumerated() where !client.outbox.isEmpty || client.socket == nil {
                await client.cut()
                await client.connect(to: nodes.port(using: &random), rooms: roomsOf[index])
                await client.absorb(quiet: .milliseconds(300))
            }
        }
        for client in clients { await client.absorb(quiet: .milliseconds(300)) }

        // validate: each client's view of each room is the database's, complete and in order.
        for (index, client) in clients.enumerated() {
            #expect(client.problems.isEmpty, "\(client.problems)")
            #expect(client.outbox.isEmpty, "unacknowledged: \(client.outbox.keys.sorted())")
            for room in roomsOf[index] {
                let stored = try await Self.allMessages(room, api: nodes.api, token: client.session.token)
                #expect(stored.map(\.seq) == (0..<stored.count).map { Int64($0) + 1 })
                #expect(
                    client.seen[room, default: []].map(\.id) == stored.map(\.id),
                    "\(client.session.user.username) in \(room)")
            }
        }
        let everyAck = clients.flatMap(\.acked)
        #expect(Set(everyAck).count == everyAck.count)
        var storedIDs: [String] = []
        for room in ["lobby", channel.id, dm.id] {
            storedIDs += try await Self.allMessages(room, api: nodes.api, token: ann.token).map { "\($0.id)" }
        }
        let totalStored = storedIDs.count
        #expect(totalStored == counter, "\(totalStored) stored for \(counter) sends")
    }

    /// A room's whole history, read page by page.
    static func allMessages(_ room: String, api: APIClient, token: String) async throws -> [MessagePayload] {
        var messages: [MessagePayload] = []
        var before: Int64?
        while true {
            let query = "/rooms/\(room)/messages?limit=200" + (before.map { "&before=\($0)" } ?? "")
            let page = try await api.send(.GET, query, token: token).decode(HistoryPage.self)
            messages = page.messages + messages
            guard page.hasMore, let first = page.messages.first else { return messages }
            before = first.seq
        }
    }
}
