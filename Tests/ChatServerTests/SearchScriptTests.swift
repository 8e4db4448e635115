import ChatProtocol
import ChatTestSupport
import Foundation
import NIOHTTP1
import Testing

/// One file of `Tests/Fixtures/search/`: messages and the queries that must find them.
struct SearchVectors: Decodable {
    struct Message: Decodable {
        let key: String
        let text: String
    }

    struct Query: Decodable {
        let q: String
        let hits: [String]
    }

    let messages: [Message]
    let queries: [Query]

    static func load(_ name: String) throws -> SearchVectors {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/search")
        return try JSONDecoder().decode(
            SearchVectors.self, from: Data(contentsOf: directory.appendingPathComponent(name)))
    }
}

@Suite("Search in every script: the shared vectors (Tests/Fixtures/search/, PROTOCOL.md §9.7)")
struct SearchScriptTests {
    @Test("each query finds exactly the messages the vectors name, with its matches marked in the snippet")
    func sharedVectors() async throws {
        let vectors = try SearchVectors.load("scripts.json")
        try await withTestServer { server in
            let ann = try await server.register("ann")
            let socket = try await server.modernClient(ann)
            var keys: [String: String] = [:]
            for (index, message) in vectors.messages.enumerated() {
                keys[message.text] = message.key
                _ = try await socket.acked(
                    .send(SendRequest(room: "lobby", clientMsgID: "v\(index)", text: message.text)))
            }
            for query in vectors.queries {
                let found = try await server.search(query.q, token: ann.token)
                #expect(Set(found.results.compactMap { keys[$0.message.text] }) == Set(query.hits), "q=\(query.q)")
                for hit in found.results {
                    #expect(
                        hit.snippet.contains { $0.match == true }, "q=\(query.q) marks nothing in \(hit.message.text)")
                    #expect(hit.snippet.map(\.text).joined() == hit.message.text)
                }
            }
        }
    }

    @Test("a match inside a run of Chinese is marked exactly, and a long text is cut around it")
    func snippetsInsideRuns() async throws {
        try await withTestServer { server in
            let ann = try await server.register("ann")
            let socket = try await server.modernClient(ann)
            let long =
                String(repeating: "这是一段很长的文字。", count: 30) + "我们明天开会讨论预算" + String(repeating: "后面还有很多。", count: 30)
            _ = try await socket.acked(.send(SendRequest(room: "lobby", clientMsgID: "1", text: "我们明天开会讨论预算")))
            _ = try await socket.acked(.send(SendRequest(room: "lobby", clientMsgID: "2", text: long)))
            let found = try await server.search("开会", token: ann.token)
            #expect(found.results.count == 2)
            let short = try #require(found.results.first { $0.message.text.count < 20 })
            #expect(
                short.snippet == [
                    SnippetPiece(text: "我们明天"), SnippetPiece(text: "开会", match: true), SnippetPiece(text: "讨论预算"),
                ])
            let cut = try #require(found.results.first { $0.message.text == long })
            #expect(cut.snippet.first?.text.hasPrefix("…") == true)
            #expect(cut.snippet.last?.text.hasSuffix("…") == true)
            #expect(cut.snippet.filter { $0.match == true }.map(\.text) == ["开会"])
        }
    }
}

extension TestServer {
    /// `GET /search` with `q` and any other parameters, decoded.
    func search(_ q: String, _ parameters: [String: String] = [:], token: String) async throws -> SearchResults {
        let reply = try await self.searchReply(q, parameters, token: token)
        #expect(reply.status == 200, "q=\(q) \(parameters): \(reply.status)")
        return try reply.decode(SearchResults.self)
    }

    func searchReply(_ q: String, _ parameters: [String: String] = [:], token: String) async throws -> APIClient.Reply {
        var components = URLComponents()
        components.queryItems =
            [URLQueryItem(name: "q", value: q)]
            + parameters.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        let query = (components.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B")
        return try await self.api.send(.GET, "/search?" + query, token: token)
    }
}
