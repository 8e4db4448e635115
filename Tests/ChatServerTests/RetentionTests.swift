import ChatCore
import ChatProtocol
import ChatServer
import ChatTestSupport
import Foundation
import NIOHTTP1
import Testing

/// `--retention-days` (PROTOCOL.md §10.8), on SQLite and PostgreSQL: the sweep runs on the server's clock, which the
/// test moves; the messages are made old in the database.
@Suite("Retention")
struct RetentionTests {
    @Test(
        "messages older than --retention-days are deleted for everyone by the server's delete events; newer ones stay")
    func oldMessagesGo() async throws {
        let time = ManualTime()
        try await withTestServer(time: time, { $0.retentionDays = 30 }) { server in
            let ann = try await server.register("ann")
            let socket = try await server.modernClient(ann)
            _ = try await socket.next(.resumed, as: ResumedFrame.self)
            for (id, text) in [("o1", "old one"), ("o2", "old two"), ("n1", "new one")] {
                _ = try await socket.acked(.send(SendRequest(room: "lobby", clientMsgID: id, text: text)))
            }
            let aged =
                server.configuration.databaseURL == nil
                ? "created_at - 40 * 86400" : "created_at - interval '40 days'"
            try await server.executeOnDatabase(
                "UPDATE messages SET created_at = \(aged) WHERE text IN ('old one', 'old two')")
            try await eventually("the hourly sweep deleted the old messages") {
                time.advance(by: .seconds(3600))
                let history = try await server.api.send(.history, "lobby", token: ann.token).decode(HistoryPage.self)
                return history.messages.filter { $0.eventKind == .message && $0.deleted == true }.count == 2
            }
            let first = try await socket.nextEvent(.delete)
            let second = try await socket.nextEvent(.delete)
            #expect(first.sender.id == TutorialIdentity.server.id && second.sender.id == TutorialIdentity.server.id)
            let history = try await server.api.send(.history, "lobby", token: ann.token).decode(HistoryPage.self)
            #expect(
                history.messages.filter { $0.eventKind == .message && $0.deleted != true }.map(\.text) == ["new one"])
        }
    }
}
