import ChatProtocol
import ChatServer
import ChatTestSupport
import Foundation
import NIOHTTP1
import Testing

/// Files, terminals, uploads and the promises PROTOCOL.md makes (issue 14, items 5, 13–19).
@Suite("Hardening: files, terminals, uploads and documented errors (docs/SECURITY.md)")
struct HardeningTests {
    @Test("the data directory is 0700 and the database, its journal and attachments are 0600")
    func dataAtRestIsPrivate() async throws {
        try await withTestServer { server in
            let ann = try await server.register("ann")
            let socket = try await server.modernClient(ann)
            _ = try await socket.acked(.send(SendRequest(room: "lobby", clientMsgID: "m1", text: "hello")))
            let upload = try await server.api.send(
                .POST, "/attachments?name=a.bin", bytes: [1, 2, 3], contentType: "application/octet-stream",
                token: ann.token)
            #expect(upload.status == 201)
            let directory = server.configuration.dataDirectory
            #expect(try Self.mode(of: directory) == 0o700)
            for name in ["chat.sqlite", "chat.sqlite-wal", "chat.sqlite-shm"] {
                #expect(try Self.mode(of: directory + "/" + name) == 0o600, "\(name)")
            }
            let files =
                FileManager.default.enumerator(atPath: server.configuration.attachmentsDirectory)?.compactMap {
                    $0 as? String
                } ?? []
            let stored = files.filter { $0.count > 40 }
            #expect(stored.count == 1)
            for file in stored {
                #expect(try Self.mode(of: server.configuration.attachmentsDirectory + "/" + file) == 0o600)
            }
        }
    }

    @Test("a NUL or control character in a static path is refused with 400")
    func controlCharactersInPaths() async throws {
        try await withTestServer { server in
            for path in ["/index.html%00.js", "/icons/app.svg%00.html", "/index.html%0d%0a"] {
                let reply = try await server.raw(.GET, path)
                #expect(reply.status == 400, "\(path)")
            }
            #expect(try await server.raw(.GET, "/index.html").status == 200)
        }
    }

    @Test("the web app manifest is served as application/manifest+json")
    func manifestType() async throws {
        try await withTestServer { server in
            let reply = try await server.raw(.GET, "/manifest.webmanifest")
            #expect(reply.status == 200)
            #expect(reply.headers.first(name: "Content-Type") == "application/manifest+json")
        }
    }

    @Test("terminal escapes and search markers never reach storage or TCP clients; tab and line breaks stay")
    func controlCharactersInText() async throws {
        try await withTestServer { server in
            let reader = try await server.joinedLineClient("reader")
            let writer = try await server.joinedLineClient("writer")
            try await writer.write("msg:\u{1B}]52;c;ZXZpbA==\u{07}red\u{1B}[31m\u{7F}!\tok\n")
            #expect(try await reader.nextLine() == "writer has joined")
            #expect(try await reader.nextLine() == "writer:]52;c;ZXZpbA==red[31m!\tok")

            let ann = try await server.register("ann")
            let socket = try await server.modernClient(ann)
            _ = try await socket.next(.resumed, as: ResumedFrame.self)
            try await socket.send(
                .send(SendRequest(room: "lobby", clientMsgID: "m1", text: "a \u{2}forged\u{3} b\u{1B}c\nd")))
            let stored = try await socket.nextEvent(.message)
            #expect(stored.text == "a forged bc\nd")
            // A message of nothing but control characters is empty.
            #expect(
                try await socket.errorCode(
                    for: .send(SendRequest(room: "lobby", clientMsgID: "m2", text: "\u{1B}\u{0}")))
                    == .emptyMessage)
            // Search snippets cannot be forged: the markers were never stored.
            let hits = try await server.api.send(.GET, "/search?q=forged", token: ann.token).decode(SearchResults.self)
            #expect(hits.results.count == 1)
            #expect(hits.results.first?.snippet.filter { $0.match == true }.map(\.text) == ["forged"])
        }
    }

    @Test("every /api/v1 error has the documented shape and code: bodies, content types, ranges, unknown paths")
    func documentedErrors() async throws {
        try await withTestServer { server in
            let empty = try await server.api.send(.POST, "/register", bytes: [], contentType: "application/json")
            #expect(empty.status == 400)
            #expect(try empty.decode(APIErrorBody.self).code == .invalidBody)
            let untyped = try await server.api.send(
                .POST, "/login", bytes: Array(#"{"username":"a","password":"b"}"#.utf8), contentType: nil)
            #expect(untyped.status == 400)
            #expect(try untyped.decode(APIErrorBody.self).code == .invalidBody)
            let unknown = try await server.api.get("/no/such/thing")
            #expect(unknown.status == 404)
            #expect(try unknown.decode(APIErrorBody.self).code == .notFound)

            let ann = try await server.register("ann")
            let upload = try await server.api.send(
                .POST, "/attachments?name=a.bin", bytes: [1, 2, 3, 4], contentType: "application/octet-stream",
                token: ann.token)
            let id = try upload.decode(AttachmentPayload.self).id
            let beyond = try await server.api.get(
                "/attachments/\(id)", token: ann.token, headers: [("Range", "bytes=10-20")])
            #expect(beyond.status == 416)
            #expect(beyond.headers.first(name: "Content-Range") == "bytes */4")
            #expect(try beyond.decode(APIErrorBody.self).code == .rangeNotSatisfiable)
            let inside = try await server.api.get(
                "/attachments/\(id)", token: ann.token, headers: [("Range", "bytes=1-2")])
            #expect(inside.status == 206)

            for path in ["/rooms/lobby/messages?limit=x", "/rooms/lobby/messages?before=soon", "/search?q=a&limit=ten"]
            {
                let reply = try await server.api.send(.GET, path, token: ann.token)
                #expect(reply.status == 400, "\(path)")
                #expect(try reply.decode(APIErrorBody.self).code.rawValue.hasPrefix("invalid_"), "\(path)")
            }
        }
    }

    @Test("a frame with a field of the wrong type gets bad_frame with its ref and the field's name")
    func badFrameKeepsItsRef() async throws {
        try await withTestServer { server in
            let ann = try await server.register("ann")
            let socket = try await server.modernClient(ann)
            try await socket.send(text: #"{"type":"send","room":"lobby","clientMsgID":"c1","text":5}"#)
            let error = try await socket.next(.error, as: ErrorFrame.self)
            #expect(error.code == .badFrame)
            #expect(error.ref == "c1")
            #expect(error.message.contains("\"text\""))
            try await socket.send(text: #"{"type":"history","room":"lobby","limit":"x","ref":"h1"}"#)
            let second = try await socket.next(.error, as: ErrorFrame.self)
            #expect(second.ref == "h1")
            #expect(second.message.contains("\"limit\""))
        }
    }

    @Test("searches with no word answer 200 with no results")
    func wordlessSearches() async throws {
        try await withTestServer { server in
            let ann = try await server.register("ann")
            for query in ["%22", "*", "(", "%F0%9F%91%8D", ";--"] {
                let reply = try await server.api.send(.GET, "/search?q=\(query)", token: ann.token)
                #expect(reply.status == 200, "\(query)")
                #expect(try reply.decode(SearchResults.self).results.isEmpty)
            }
        }
    }

    @Test(
        "the upload limit counts the file and includes it: exactly the limit passes, raw or in a form; one more is 413")
    func uploadLimitIsInclusive() async throws {
        try await withTestServer({ $0.maxUploadBytes = 1000 }) { server in
            let ann = try await server.register("ann")
            let exact = try await server.api.send(
                .POST, "/attachments?name=a.bin", bytes: Array(repeating: 7, count: 1000),
                contentType: "application/octet-stream", token: ann.token)
            #expect(exact.status == 201)
            let form =
                Array("--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"f.bin\"\r\n\r\n".utf8)
                + Array(repeating: 8, count: 1000) + Array("\r\n--b--\r\n".utf8)
            let inForm = try await server.api.send(
                .POST, "/attachments", bytes: form, contentType: "multipart/form-data; boundary=b", token: ann.token)
            #expect(inForm.status == 201)
            #expect(try inForm.decode(AttachmentPayload.self).size == 1000)
            let over = try await server.api.send(
                .POST, "/attachments?name=b.bin", bytes: Array(repeating: 9, count: 1001),
                contentType: "application/octet-stream", token: ann.token)
            #expect(over.status == 413)
        }
    }

    @Test("multipart bodies that trap multipart-kit are refused with 400, and the server stays up (Fuzz/Regressions)")
    func multipartTraps() async throws {
        try await withTestServer { server in
            let ann = try await server.register("ann")
            let nonASCIIName = Array("--b\r\n".utf8) + [0x80] + Array(": x\r\n\r\nbody\r\n--b--\r\n".utf8)
            let trapped = try await server.api.send(
                .POST, "/attachments", bytes: nonASCIIName, contentType: "multipart/form-data; boundary=b",
                token: ann.token)
            #expect(trapped.status == 400)
            let empty = try await server.api.send(
                .POST, "/attachments", bytes: Array("--\r\n".utf8), contentType: "multipart/form-data; boundary=",
                token: ann.token)
            #expect(empty.status == 400)
            // A UTF-8 file name in a header value is fine, and so is any byte in the body and the epilogue.
            let named =
                Array("--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"日本.bin\"\r\n\r\n".utf8)
                + [0x80, 0xFF, 0x00] + Array("\r\n--b--\r\n".utf8) + [0x80]
            let fine = try await server.api.send(
                .POST, "/attachments", bytes: named, contentType: "multipart/form-data; boundary=b", token: ann.token)
            #expect(fine.status == 201)
            #expect(try fine.decode(AttachmentPayload.self).name == "日本.bin")
            #expect(try fine.decode(AttachmentPayload.self).size == 3)
        }
    }

    @Test("uploads count against a per-account quota: 413 quota_exceeded, and nothing is stored")
    func uploadQuota() async throws {
        try await withTestServer({ $0.uploadQuotaBytes = 2500 }) { server in
            let ann = try await server.register("ann")
            for index in 0..<2 {
                let reply = try await server.api.send(
                    .POST, "/attachments?name=\(index).bin", bytes: Array(repeating: UInt8(index), count: 1000),
                    contentType: "application/octet-stream", token: ann.token)
                #expect(reply.status == 201)
            }
            let third = try await server.api.send(
                .POST, "/attachments?name=2.bin", bytes: Array(repeating: 2, count: 1000),
                contentType: "application/octet-stream", token: ann.token)
            #expect(third.status == 413)
            #expect(try third.decode(APIErrorBody.self).code == .quotaExceeded)
            let files =
                FileManager.default.enumerator(atPath: server.configuration.attachmentsDirectory)?.compactMap {
                    $0 as? String
                } ?? []
            #expect(files.filter { $0.count > 40 }.count == 2)
        }
    }

    @Test("an account may have a few uploads in progress; more are refused until one ends")
    func uploadsInProgress() async throws {
        try await withTestServer { server in
            let ann = try await server.register("ann")
            /// An upload that sends its head and a first part of its body, then nothing.
            func stalledUpload() async throws -> LineClient {
                let client = try await server.rawHTTPClient()
                try await client.write(
                    "POST /api/v1/attachments HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(ann.token)\r\n"
                        + "Content-Type: application/octet-stream\r\nContent-Length: 100000\r\n\r\n"
                        + String(repeating: "x", count: 1000))
                return client
            }
            var stalled: [LineClient] = []
            for _ in 0..<4 { stalled.append(try await stalledUpload()) }
            try await eventually {
                // A stalled upload that reached the server while a probe below held a slot was refused (it got an
                // answer): open it again, so that four are in progress.
                for index in stalled.indices where !stalled[index].lines.drain().isEmpty {
                    await stalled[index].close()
                    stalled[index] = try await stalledUpload()
                }
                return try await server.api.send(
                    .POST, "/attachments", bytes: [1], contentType: "application/octet-stream", token: ann.token
                )
                .status == 429
            }
            for client in stalled { await client.close() }
            try await eventually {
                try await server.api.send(
                    .POST, "/attachments", bytes: [1], contentType: "application/octet-stream", token: ann.token
                ).status == 201
            }
        }
    }

    @Test("an upload no message carries is deleted after a day, record and file; a sent one stays")
    func unsentUploadsAreSwept() async throws {
        try await withTestServer { server in
            let ann = try await server.register("ann")
            let socket = try await server.modernClient(ann)
            let unsent = try await server.api.send(
                .POST, "/attachments?name=u.bin", bytes: [1, 1, 1], contentType: "application/octet-stream",
                token: ann.token
            )
            .decode(AttachmentPayload.self)
            let sent = try await server.api.send(
                .POST, "/attachments?name=s.bin", bytes: [2, 2, 2], contentType: "application/octet-stream",
                token: ann.token
            )
            .decode(AttachmentPayload.self)
            _ = try await socket.acked(
                .send(SendRequest(room: "lobby", clientMsgID: "a1", text: "", attachments: [sent.id.uuidString]))
            )
            await server.service.sweepUnsentAttachments(now: Date().addingTimeInterval(3600))
            #expect(try await server.api.get("/attachments/\(unsent.id)", token: ann.token).status == 200)
            await server.service.sweepUnsentAttachments(now: Date().addingTimeInterval(25 * 3600))
            #expect(try await server.api.get("/attachments/\(unsent.id)", token: ann.token).status == 403)
            #expect(try await server.api.get("/attachments/\(sent.id)", token: ann.token).status == 200)
            let files =
                FileManager.default.enumerator(atPath: server.configuration.attachmentsDirectory)?.compactMap {
                    $0 as? String
                } ?? []
            #expect(files.filter { $0.count > 40 }.count == 1)
        }
    }

    private static func mode(of path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int ?? 0) & 0o777
    }
}

extension TestServer {
    /// A request outside `/api/v1` (static files), answered with status and body.
    func raw(_ method: HTTPMethod, _ path: String) async throws -> APIClient.Reply {
        try await APIClient(baseURL: "http://\(self.host):\(self.httpPort)").send(
            method, path, bytes: [], contentType: nil)
    }
}
