import ChatProtocol
import ChatServer
import ChatTestSupport
import Foundation
import NIOHTTP1
import Testing

@Suite("Search: my rooms only, literal, with snippets (PROTOCOL.md §9.7)")
struct SearchTests {
    @Test("finds words and prefixes in my rooms, highlights them, and never shows a room I am not in")
    func scopedAndHighlighted() async throws {
        try await withTestServer { server in
            let (ann, bob, dm, annSocket, _) = try await server.pair()
            let carol = try await server.register("carol")
            _ = try await annSocket.acked(
                .send(SendRequest(room: dm.id, clientMsgID: "1", text: "the quarterly report is late")))
            _ = try await annSocket.acked(
                .send(SendRequest(room: "lobby", clientMsgID: "2", text: "Report: lunch at noon")))
            _ = try await annSocket.acked(
                .send(SendRequest(room: dm.id, clientMsgID: "3", text: "nothing to see")))

            let mine = try await server.api.send(.GET, "/search?q=repo", token: bob.token).decode(SearchResults.self)
            #expect(Set(mine.results.map(\.message.text)) == ["the quarterly report is late", "Report: lunch at noon"])
            let hit = try #require(mine.results.first { $0.message.room == dm.id })
            #expect(hit.snippet.filter { $0.match == true }.map(\.text) == ["report"])
            #expect(hit.snippet.map(\.text).joined() == "the quarterly report is late")

            let narrowed = try await server.api.send(.GET, "/search?q=report&room=\(dm.id)", token: ann.token).decode(
                SearchResults.self)
            #expect(narrowed.results.map(\.message.seq) == [1])
            let outsider = try await server.api.send(.GET, "/search?q=quarterly", token: carol.token).decode(
                SearchResults.self)
            #expect(outsider.results.isEmpty)
            #expect(try await server.api.send(.GET, "/search?q=report&room=\(dm.id)", token: carol.token).status == 403)
            let both = try await server.api.send(.GET, "/search?q=quarterly%20late", token: bob.token).decode(
                SearchResults.self)
            #expect(both.results.count == 1)
        }
    }

    @Test("a last word of three bytes or more also matches as a prefix; a shorter one matches whole")
    func shortPrefixes() async throws {
        try await withTestServer { server in
            let ann = try await server.register("ann")
            let socket = try await server.modernClient(ann)
            for (index, text) in ["he said so", "a hexagon", "an ox", "oxygen", "你好吗"].enumerated() {
                _ = try await socket.acked(
                    .send(SendRequest(room: "lobby", clientMsgID: "\(index)", text: text)))
            }
            func found(_ query: String) async throws -> Set<String> {
                let encoded = query.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
                let results = try await server.api.send(.GET, "/search?q=\(encoded)", token: ann.token).decode(
                    SearchResults.self)
                return Set(results.results.map(\.message.text))
            }
            #expect(try await found("he") == ["he said so"])
            #expect(try await found("hex") == ["a hexagon"])
            #expect(try await found("ox") == ["an ox"])
            #expect(try await found("oxy") == ["oxygen"])
            #expect(try await found("said he") == ["he said so"])
            // Two characters of Chinese are found wherever they stand in a run.
            #expect(try await found("你好") == ["你好吗"])
            #expect(try await found("好吗") == ["你好吗"])
        }
    }

    @Test("an empty or overlong query is invalid_query")
    func invalidQueries() async throws {
        try await withTestServer { server in
            let ann = try await server.register("ann")
            for query in ["", "%20%20", String(repeating: "a", count: 201)] {
                let reply = try await server.api.send(.GET, "/search?q=\(query)", token: ann.token)
                #expect(reply.status == 400)
                #expect(try reply.decode(APIErrorBody.self).code == .invalidQuery)
            }
            #expect(try await server.api.send(.GET, "/search?q=x").status == 401)
        }
    }
}
