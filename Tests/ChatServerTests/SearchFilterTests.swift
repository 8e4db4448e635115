import ChatProtocol
import ChatTestSupport
import Foundation
import NIOHTTP1
import Testing

@Suite("Search filters and bad queries (PROTOCOL.md §9.7)")
struct SearchFilterTests {
    @Test("from:, in:, has:, before:/after:, is:mention and exclusions narrow a search, alone or with words")
    func filters() async throws {
        try await withTestServer { server in
            let (ann, bob, dm, annSocket, bobSocket) = try await server.pair()
            let group = try await server.api.send(
                .POST, "/rooms", json: CreateRoomRequest(kind: "group", name: "Design", members: ["bob"]),
                token: ann.token
            ).decode(RoomSummary.self)
            let image = try await server.api.send(
                .POST, "/attachments?name=a.png", bytes: pngBytes(width: 2, height: 2), contentType: "image/png",
                token: ann.token
            ).decode(AttachmentPayload.self)
            let file = try await server.api.send(
                .POST, "/attachments?name=notes.txt", bytes: Array("notes".utf8), contentType: "text/plain",
                token: bob.token
            ).decode(AttachmentPayload.self)
            _ = try await annSocket.acked(.send(SendRequest(room: group.id, clientMsgID: "1", text: "budget draft")))
            _ = try await bobSocket.acked(
                .send(SendRequest(room: group.id, clientMsgID: "2", text: "budget at https://example.org/b")))
            _ = try await annSocket.acked(
                .send(
                    SendRequest(room: dm.id, clientMsgID: "3", text: "budget photo", attachments: [image.id.uuidString])
                ))
            _ = try await bobSocket.acked(
                .send(SendRequest(room: dm.id, clientMsgID: "4", text: "", attachments: [file.id.uuidString])))
            _ = try await annSocket.acked(.send(SendRequest(room: group.id, clientMsgID: "5", text: "@bob 预算 please")))

            func texts(_ q: String, _ parameters: [String: String] = [:], as user: AuthSession) async throws -> Set<
                String
            > {
                Set(try await server.search(q, parameters, token: user.token).results.map(\.message.text))
            }
            #expect(try await texts("budget from:bob", as: ann) == ["budget at https://example.org/b"])
            #expect(try await texts("from:@ann", as: bob) == ["budget draft", "budget photo", "@bob 预算 please"])
            #expect(try await texts("budget", ["from": "ann"], as: bob) == ["budget draft", "budget photo"])
            #expect(
                try await texts("budget in:design", as: bob) == ["budget draft", "budget at https://example.org/b"])
            #expect(try await texts("in:ann", as: bob) == ["budget photo", ""])
            #expect(try await texts("has:link", as: ann) == ["budget at https://example.org/b"])
            #expect(try await texts("has:image", as: bob) == ["budget photo"])
            #expect(try await texts("has:file", as: bob) == [""])
            #expect(try await texts("", ["has": "image,file"], as: bob) == [])
            #expect(try await texts("budget -draft -photo", as: ann) == ["budget at https://example.org/b"])
            #expect(try await texts("in:design -budget", as: ann) == ["@bob 预算 please"])
            #expect(try await texts("is:mention", as: bob) == ["@bob 预算 please"])
            #expect(try await texts("is:mention", as: ann) == [])
            #expect(try await texts("预算 is:mention", as: bob) == ["@bob 预算 please"])
            #expect(try await texts("budget before:2000-01-01", as: ann) == [])
            #expect(try await texts("budget after:2000-01-01", as: ann).count == 3)
            #expect(try await texts("budget", ["before": "2999-12-31"], as: ann).count == 3)
            // A room by its id narrows like in:, and a room I am not in is refused.
            #expect(try await texts("budget", ["room": dm.id], as: ann) == ["budget photo"])
            #expect(try await texts("", ["room": dm.id], as: ann) == ["budget photo", ""])
            #expect(try await texts("🙂", ["room": dm.id], as: ann) == [])
            let carol = try await server.register("carol")
            #expect(try await server.searchReply("budget", ["room": dm.id], token: carol.token).status == 403)
            #expect(try await texts("from:ann", as: carol) == [])
        }
    }

    @Test("results come newest first, in every room")
    func newestFirst() async throws {
        try await withTestServer { server in
            let ann = try await server.register("ann")
            let socket = try await server.modernClient(ann)
            for index in 1...5 {
                _ = try await socket.acked(
                    .send(SendRequest(room: "lobby", clientMsgID: "\(index)", text: "kiwi \(index)")))
            }
            let found = try await server.search("kiwi", ["limit": "3"], token: ann.token)
            #expect(found.results.map(\.message.text) == ["kiwi 5", "kiwi 4", "kiwi 3"])
        }
    }

    /// One server for every case: each server holds database connections, and PostgreSQL's are counted.
    static let badQueries = [
        "from:", "in:", "has:", "has:video", "before:2026-13-45", "after:yesterday", "before:2026-02-30", "is:unread",
        "-report", "-from:ann", "from:nobody", "in:nowhere", String(repeating: "a", count: 10_000),
        String(repeating: "预", count: 201),
    ]

    @Test("a malformed filter, an exclusion alone or an overlong query is 400 invalid_query saying what was wrong")
    func badQueries() async throws {
        try await withTestServer { server in
            let ann = try await server.register("ann")
            for query in Self.badQueries {
                let reply = try await server.searchReply(query, token: ann.token)
                #expect(reply.status == 400, "q=\(query.prefix(40))")
                let body = try reply.decode(APIErrorBody.self)
                #expect(body.code == .invalidQuery)
                #expect(!body.message.isEmpty)
            }
        }
    }

    static let literalQueries = [
        "!!!", "🙂🙂", "，", "「」", "a & b", "a | !b", "'late':*", "late <-> report", "NEAR(late report)", "\"", ":*",
        "late*", "(late", "report)", "^late", "{late}", "\"report", "report AND", "OR", "re:port", "*", "\\", "'",
        "late:", "has:link,image", "-\"", "\"\"",
    ]

    @Test("punctuation, emoji and either database's query syntax find nothing or what they literally hold, never a 500")
    func syntaxIsLiteral() async throws {
        try await withTestServer { server in
            let ann = try await server.register("ann")
            let socket = try await server.modernClient(ann)
            _ = try await socket.acked(.send(SendRequest(room: "lobby", clientMsgID: "1", text: "the report is late")))
            for query in Self.literalQueries {
                let reply = try await server.searchReply(query, token: ann.token)
                #expect(reply.status == 200, "q=\(query)")
                let results = try reply.decode(SearchResults.self).results
                #expect(results.allSatisfy { $0.message.text == "the report is late" })
            }
        }
    }
}
