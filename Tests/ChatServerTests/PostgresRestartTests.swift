import ChatPersistence
import ChatProtocol
import ChatServer
import ChatTestSupport
import Foundation
import NIOHTTP1
import Testing

/// PostgreSQL itself goes down under load and comes back (issue 12): the nodes reconnect on their own, the sends it
/// refused meanwhile are retried by their clients, and nothing acknowledged is lost or stored twice.
@Suite("PostgreSQL restarted under load")
struct PostgresRestartTests {
    /// One sender's socket: what it had acknowledged, and which message `seq`s it received.
    struct Sender {
        let socket: WebSocketTestClient
        var acks: [String: Int64] = [:]
        var seen: [Int64] = []

        /// Sends `clientMsgID` until it is acknowledged, resending after every refusal (`unavailable` while the
        /// database is down) or silence, as a client's outbox does; records what arrives meanwhile.
        mutating func send(_ clientMsgID: String, deadline: ContinuousClock.Instant) async throws {
            while ContinuousClock.now < deadline {
                try await self.socket.send(
                    .send(SendRequest(room: "lobby", clientMsgID: clientMsgID, text: clientMsgID)))
                while let text = try? await self.socket.nextText(timeout: .seconds(3)) {
                    if self.record(text) == clientMsgID { return }
                    if case .error(let error) = try? ServerMessage.decode(Data(text.utf8)), error.ref == clientMsgID {
                        try #require(error.code == .unavailable, "\(text)")
                        break
                    }
                }
                try await Task.sleep(for: .milliseconds(200))
            }
            throw TestClientError("\(clientMsgID) was never acknowledged")
        }

        /// Records an ack or a message; returns the `clientMsgID` an ack answers.
        mutating func record(_ text: String) -> String? {
            switch try? ServerMessage.decode(Data(text.utf8)) {
            case .ack(let ack):
                if let earlier = self.acks[ack.clientMsgID] { #expect(earlier == ack.seq, "two seqs for one send") }
                self.acks[ack.clientMsgID] = ack.seq
                return ack.clientMsgID
            case .message(let message, _) where message.room == "lobby":
                self.seen.append(message.seq)
                return nil
            default:
                return nil
            }
        }

        /// Reads until message `seq` `last` has arrived.
        mutating func readThrough(_ last: Int64) async throws {
            while self.seen.last.map({ $0 < last }) ?? true {
                _ = self.record(try await self.socket.nextText(timeout: .seconds(10)))
            }
        }
    }

    @Test(
        "pg_ctl restart -m immediate while two nodes' clients send: every send is acknowledged once, stored once, and seen by both in one gap-free order"
    )
    func restartUnderLoad() async throws {
        let postgres = try await TestPostgres.startPrivate()
        let database = try DatabaseURL(try await postgres.makeDatabase().url)
        let configure: (inout ServerConfiguration) -> Void = {
            $0.databaseURL = database
            $0.sendBurst = 1000
            $0.sendRate = 1000
        }
        try await withTestServer(configure) { nodeA in
            try await withTestServer(configure) { nodeB in
                let ann = try await nodeA.register("ann")
                let bob = try await nodeB.register("bob")
                var senders = [
                    Sender(socket: try await nodeA.modernClient(ann)),
                    Sender(socket: try await nodeB.modernClient(bob)),
                ]
                for sender in senders { _ = try await sender.socket.next(.resumed, as: ResumedFrame.self) }
                let perSender = 30
                let deadline = ContinuousClock.now + .seconds(90)
                let restart = Task {
                    try await Task.sleep(for: .milliseconds(400))
                    try await postgres.restartImmediately()
                }
                try await withThrowingTaskGroup(of: (Int, Sender).self) { group in
                    for (index, sender) in senders.enumerated() {
                        group.addTask {
                            var sender = sender
                            for number in 0..<perSender {
                                try await sender.send("\(index)-\(number)", deadline: deadline)
                                try await Task.sleep(for: .milliseconds(30))
                            }
                            return (index, sender)
                        }
                    }
                    for try await (index, sender) in group { senders[index] = sender }
                }
                try await restart.value

                // Stored once each, numbered 1…60 with no gap, each with the seq its ack gave.
                let total = Int64(2 * perSender)
                let history = try await nodeA.api.send(.GET, "/rooms/lobby/messages?limit=200", token: ann.token)
                    .decode(HistoryPage.self).messages
                #expect(history.map(\.seq) == Array(1...total))
                let acked = senders[0].acks.merging(senders[1].acks) { first, _ in first }
                #expect(acked.count == Int(total))
                #expect(Dictionary(uniqueKeysWithValues: history.map { ($0.text, $0.seq) }) == acked)
                // Each socket saw every message once, in order (some late: delivered when the database was back).
                for index in senders.indices {
                    try await senders[index].readThrough(total)
                    #expect(senders[index].seen == Array(1...total))
                }
            }
        }
    }
}
