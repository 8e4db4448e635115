import ChatProtocol
import ChatServer
import ChatTestSupport
import Foundation
import NIOHTTP1
import Testing

@Suite("History opened at a message: around= and after= (PROTOCOL.md §7)")
struct HistoryAroundTests {
    @Test("a page around a message holds it with the events on both sides; paging up and down continues without a gap")
    func aroundThenBothWays() async throws {
        try await withTestServer({ $0.sendBurst = 100 }) { server in
            let ann = try await server.register("ann")
            let room = try await server.api.send(
                .POST, "/rooms", json: CreateRoomRequest(kind: "group", name: "Plans", members: []), token: ann.token
            ).decode(RoomSummary.self)
            let socket = try await server.modernClient(ann)
            for index in 1...30 {
                _ = try await socket.acked(
                    .send(SendRequest(room: room.id, clientMsgID: "\(index)", text: "m\(index)")))
            }
            func page(_ query: String) async throws -> HistoryPage {
                try await server.api.send(.GET, "/rooms/\(room.id)/messages?\(query)", token: ann.token).decode(
                    HistoryPage.self)
            }
            let all = try await page("limit=200").messages.map(\.seq)
            let middle = all[all.count / 2]
            let around = try await page("around=\(middle)&limit=10")
            let seqs = around.messages.map(\.seq)
            #expect(seqs.count == 10)
            #expect(seqs.contains(middle))
            #expect(seqs == Array(seqs.first!...seqs.last!))
            #expect(seqs.filter { $0 < middle }.count == 4)
            #expect(around.hasMore && around.hasNewer == true)
            let newer = try await page("after=\(seqs.last!)&limit=10")
            #expect(newer.messages.first?.seq == seqs.last! + 1)
            let older = try await page("before=\(seqs.first!)&limit=10")
            #expect(older.messages.last?.seq == seqs.first! - 1)
            // At the newest message there is nothing newer; a plain page says nothing about newer ones.
            let last = try await page("around=\(all.last!)&limit=10")
            #expect(last.messages.last?.seq == all.last!)
            #expect(last.messages.count == 10)
            #expect(last.hasNewer == false)
            #expect(try await page("after=\(all.last!)").messages.isEmpty)
            #expect(try await page("limit=5").hasNewer == nil)
        }
    }

    @Test("a bad position is 400 invalid_position; two positions at once too")
    func badPositions() async throws {
        try await withTestServer { server in
            let ann = try await server.register("ann")
            for query in [
                "around=-1", "around=abc", "after=9223372036854775807", "before=5&around=6", "after=1&around=2",
            ] {
                let reply = try await server.api.send(.GET, "/rooms/lobby/messages?\(query)", token: ann.token)
                #expect(reply.status == 400, "\(query)")
                #expect(try reply.decode(APIErrorBody.self).code == .invalidPosition, "\(query)")
            }
        }
    }
}
