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
    var seen: [String: [MessageFrame]] = [:]
    /// Sent but not yet acknowledged: clientMsgID → (room, text).
    var outbox: [String: (room: String, text: String)] = [:]
    var acked: Set<String> = []
    var problems: [String] = []

    init(session: AuthSession) {
        self.session = session
    }

    func lastSeq(_ room: String) -> Int64 { self.seen[room]?.last?.seq ?? 0 }

    /// Connects and resumes every room from what it has seen, then resends everything unacknowledged.
    func connect(to server: TestServer, rooms: [String]) async throws {
        let socket = try await WebSocketTestClient.connect(
            host: server.host, port: server.httpPort, path: "/api/v1/ws?token=\(self.session.token)")
        self.socket = socket
        try await socket.send(
            frame: ClientFrame(
                type: "resume", rooms: Dictionary(uniqueKeysWithValues: rooms.map { ($0, self.lastSeq($0)) })))
        for (id, pending) in self.outbox.sorted(by: { $0.key < $1.key }) {
            try await socket.send(
                frame: ClientFrame(type: "send", room: pending.room, clientMsgID: id, text: pending.text))
        }
    }

    func cut() async {
        await self.socket?.reset()
        self.socket = nil
    }

    /// Reads whatever has arrived until the connection has been quiet for `quiet`.
    func absorb(quiet: Duration = .milliseconds(40)) async {
        guard let socket = self.socket else { return }
        while let frame = await socket.frames.next(timeout: quiet) {
            guard frame.opcode == WebSocketTestClient.Opcode.text else {
                if frame.opcode == WebSocketTestClient.Opcode.close {
                    self.socket = nil
                    return
                }
                continue
            }
            let data = Data(frame.payload)
            if let message = try? JSONDecoder().decode(MessageFrame.self, from: data), message.type == "message" {
                let expected = self.lastSeq(message.room) + 1
                if message.seq != expected {
                    self.problems.append(
                        "\(self.session.user.username) got seq \(message.seq) in \(message.room), expected \(expected)")
                } else {
                    self.seen[message.room, default: []].append(message)
                }
            } else if let ack = try? JSONDecoder().decode(AckFrame.self, from: data), ack.type == "ack" {
                self.outbox[ack.clientMsgID] = nil
                self.acked.insert(ack.clientMsgID)
            } else if let error = try? JSONDecoder().decode(ErrorFrame.self, from: data), error.type == "error",
                error.code != .rateLimited
            {
                self.problems.append("\(self.session.user.username) got error \(error.code) for \(error.ref ?? "-")")
            }
        }
    }
}

@Suite("Chaos: random disconnects lose nothing and repeat nothing (PROTOCOL.md §8.2–8.3)")
struct ChaosTests {
    /// `CHAOS_SEED` and `CHAOS_STEPS` run other or longer scenarios; the suite's own run uses a fixed seed.
    static var seed: UInt64 { ProcessInfo.processInfo.environment["CHAOS_SEED"].flatMap(UInt64.init) ?? 20_261_122 }
    static var steps: Int { ProcessInfo.processInfo.environment["CHAOS_STEPS"].flatMap(Int.init) ?? 120 }

    @Test func everyViewEqualsTheDatabase() async throws {
        try await withTestServer({ $0.pingInterval = 3600 }) { server in
            // setup: three users, a channel, a DM, the lobby.
            var random = SplitMix64(state: Self.seed)
            let ann = try await server.register("ann")
            let bob = try await server.register("bob")
            let cat = try await server.register("cat")
            let channel = try await server.api.send(
                .POST, "/rooms", json: CreateRoomRequest(kind: "channel", name: "chaos", members: ["bob", "cat"]),
                token: ann.token
            ).decode(RoomSummary.self)
            let dm = try await server.api.send(.POST, "/dms", json: UsernameRequest(username: "bob"), token: ann.token)
                .decode(RoomSummary.self)
            let clients = [ChaosClient(session: ann), ChaosClient(session: bob), ChaosClient(session: cat)]
            let roomsOf = [["lobby", channel.id, dm.id], ["lobby", channel.id, dm.id], ["lobby", channel.id]]
            var counter = 0

            // act: random sends, cuts before acks, cuts right after resuming, reconnects with retries.
            for _ in 0..<Self.steps {
                let index = Int.random(in: 0..<clients.count, using: &random)
                let client = clients[index]
                if client.socket == nil {
                    try await client.connect(to: server, rooms: roomsOf[index])
                    if Int.random(in: 0..<4, using: &random) == 0 { await client.cut() }  // mid-resume
                    continue
                }
                switch Int.random(in: 0..<10, using: &random) {
                case 0..<6:
                    counter += 1
                    let id = "\(client.session.user.username)-\(counter)"
                    let room = roomsOf[index].randomElement(using: &random)!
                    client.outbox[id] = (room, "message \(counter)")
                    try await client.socket?.send(
                        frame: ClientFrame(type: "send", room: room, clientMsgID: id, text: "message \(counter)"))
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
                    try await client.connect(to: server, rooms: roomsOf[index])
                    await client.absorb(quiet: .milliseconds(300))
                }
            }
            for client in clients { await client.absorb(quiet: .milliseconds(300)) }

            // validate: each client's view of each room is the database's, complete and in order.
            for (index, client) in clients.enumerated() {
                #expect(client.problems.isEmpty, "\(client.problems)")
                #expect(client.outbox.isEmpty, "unacknowledged: \(client.outbox.keys.sorted())")
                for room in roomsOf[index] {
                    let stored = try await self.allMessages(room, server: server, token: client.session.token)
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
                storedIDs += try await self.allMessages(room, server: server, token: ann.token).map { "\($0.id)" }
            }
            let totalStored = storedIDs.count
            #expect(totalStored == counter, "\(totalStored) stored for \(counter) sends")
        }
    }

    /// A room's whole history, read page by page.
    func allMessages(_ room: String, server: TestServer, token: String) async throws -> [MessagePayload] {
        var messages: [MessagePayload] = []
        var before: Int64?
        while true {
            let query = "/rooms/\(room)/messages?limit=200" + (before.map { "&before=\($0)" } ?? "")
            let page = try await server.api.send(.GET, query, token: token).decode(HistoryPage.self)
            messages = page.messages + messages
            guard page.hasMore, let first = page.messages.first else { return messages }
            before = first.seq
        }
    }
}
