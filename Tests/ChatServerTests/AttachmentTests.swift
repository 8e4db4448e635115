import ChatProtocol
import ChatServer
import ChatTestSupport
import Foundation
import NIOCore
import NIOHTTP1
import Testing

extension TestServer {
    /// Uploads a PNG as `account` through this server and sends it, with no text, in `room` on `socket`; returns
    /// the bytes and the attachment as members receive it.
    func sendImage(
        as account: AuthSession, on socket: WebSocketTestClient, in room: String, clientMsgID: String,
        side: UInt32 = 32
    ) async throws -> (png: [UInt8], attachment: AttachmentPayload) {
        let png = pngBytes(width: side, height: side)
        let attachment = try await self.api.send(
            .POST, "/attachments?name=dot.png", bytes: png, contentType: "image/png", token: account.token
        ).decode(AttachmentPayload.self)
        _ = try await socket.acked(
            .send(SendRequest(room: room, clientMsgID: clientMsgID, text: "", attachments: [attachment.id.uuidString])))
        return (png, attachment)
    }
}

@Suite("Attachments: upload, sniffing, access, range (PROTOCOL.md §9.3)")
struct AttachmentTests {
    @Test("an image sent in a DM reaches the other member, who can fetch it with the right headers; an outsider cannot")
    func imageInADirectRoom() async throws {
        try await withTestServer { server in
            let (ann, bob, dm, annSocket, bobSocket) = try await server.pair()
            let carol = try await server.register("carol")
            let png = pngBytes(width: 640, height: 480)
            // Declared as JPEG with a misleading name: the bytes decide.
            let upload = try await server.api.send(
                .POST, "/attachments?name=map.png", bytes: png, contentType: "image/jpeg", token: ann.token)
            #expect(upload.status == 201)
            let attachment = try upload.decode(AttachmentPayload.self)
            #expect(
                attachment.contentType == "image/png" && attachment.width == 640 && attachment.height == 480
                    && attachment.size == Int64(png.count))

            // Before it is sent anywhere, only the uploader can read it.
            #expect(try await server.api.get("/attachments/\(attachment.id)", token: bob.token).status == 403)
            _ = try await annSocket.acked(
                .send(SendRequest(room: dm.id, clientMsgID: "p1", text: "", attachments: [attachment.id.uuidString])))
            let message = try await bobSocket.nextEvent(.message)
            #expect(message.attachments == [attachment] && message.text.isEmpty)

            let fetched = try await server.api.get("/attachments/\(attachment.id)", token: bob.token)
            #expect(fetched.status == 200 && Array(fetched.body) == png)
            #expect(fetched.headers.first(name: "Content-Type") == "image/png")
            #expect(fetched.headers.first(name: "X-Content-Type-Options") == "nosniff")
            #expect(
                fetched.headers.first(name: "Content-Disposition")?.hasPrefix("inline; filename=\"map.png\"") == true)
            let viaQuery = try await server.api.get("/attachments/\(attachment.id)?token=\(bob.token)")
            #expect(viaQuery.status == 200)
            let range = try await server.api.get(
                "/attachments/\(attachment.id)", token: bob.token, headers: [("Range", "bytes=0-7")])
            #expect(range.status == 206 && Array(range.body) == Array(png.prefix(8)))

            #expect(try await server.api.get("/attachments/\(attachment.id)", token: carol.token).status == 403)
            #expect(try await server.api.get("/attachments/\(attachment.id)").status == 403)
            #expect(try await server.api.get("/attachments/\(UUID())", token: bob.token).status == 403)
            // Carol cannot send what she cannot see.
            let carolSocket = try await server.modernClient(carol)
            #expect(
                try await carolSocket.errorCode(
                    for: .send(
                        SendRequest(
                            room: "lobby", clientMsgID: "c1", text: "look", attachments: [attachment.id.uuidString])))
                    == .badAttachment)
            #expect(
                try await carolSocket.errorCode(
                    for: .send(SendRequest(room: "lobby", clientMsgID: "c2", text: "look", attachments: ["not-an-id"])))
                    == .badAttachment)
        }
    }

    @Test("deleting the message takes the attachment away from the room, unless another message there still carries it")
    func deletedMessageAttachment() async throws {
        try await withTestServer { server in
            let (ann, bob, dm, annSocket, _) = try await server.pair()
            let upload = try await server.api.send(
                .POST, "/attachments?name=a.png", bytes: pngBytes(width: 2, height: 2), contentType: "image/png",
                token: ann.token)
            let id = try upload.decode(AttachmentPayload.self).id
            let first = try await annSocket.acked(
                .send(SendRequest(room: dm.id, clientMsgID: "a1", text: "", attachments: [id.uuidString])))
            let again = try await annSocket.acked(
                .send(SendRequest(room: dm.id, clientMsgID: "a2", text: "again", attachments: [id.uuidString])))
            // One of two messages deleted: still readable.
            _ = try await annSocket.acked(
                .delete(DeleteRequest(room: dm.id, clientMsgID: "d1", target: first.seq)))
            #expect(try await server.api.get("/attachments/\(id)", token: bob.token).status == 200)
            // Both deleted: bob can no longer fetch it; ann, who uploaded it, still can.
            _ = try await annSocket.acked(
                .delete(DeleteRequest(room: dm.id, clientMsgID: "d2", target: again.seq)))
            #expect(try await server.api.get("/attachments/\(id)", token: bob.token).status == 403)
            #expect(try await server.api.get("/attachments/\(id)", token: ann.token).status == 200)
        }
    }

    @Test("GET /config advertises the limits without a login: 10 MiB uploads, four image types, any file")
    func advertisedLimits() async throws {
        try await withTestServer { server in
            let reply = try await server.api.get("/config")
            #expect(reply.status == 200)
            let limits = try reply.decode(ServerLimits.self)
            #expect(limits.maxUploadBytes == 10_485_760 && limits.filesAllowed && limits.maxAttachments == 10)
            #expect(Set(limits.imageTypes) == ["image/png", "image/jpeg", "image/gif", "image/webp"])
            #expect(limits.maxMessageBytes == server.configuration.maxMessageBytes && !limits.version.isEmpty)
        }
    }

    @Test("any other file is a download; multipart works")
    func filesAndMultipart() async throws {
        try await withTestServer { server in
            let ann = try await server.register("ann")
            let boundary = "XyZ"
            let body =
                "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"notes.txt\"\r\nContent-Type: text/plain\r\n\r\nhello notes\r\n--\(boundary)--\r\n"
            let reply = try await server.api.send(
                .POST, "/attachments", bytes: Array(body.utf8),
                contentType: "multipart/form-data; boundary=\(boundary)", token: ann.token)
            #expect(reply.status == 201)
            let file = try reply.decode(AttachmentPayload.self)
            #expect(
                file.name == "notes.txt" && file.contentType == "application/octet-stream" && file.size == 11
                    && file.width == nil)
            let fetched = try await server.api.get("/attachments/\(file.id)", token: ann.token)
            #expect(String(decoding: fetched.body, as: UTF8.self) == "hello notes")
            #expect(fetched.headers.first(name: "Content-Disposition")?.hasPrefix("attachment;") == true)
        }
    }

    @Test(
        "bad uploads: a lie about the type, empty, over the limit, a form without a file, cut off mid-body — a JSON error and no file left"
    )
    func badUploads() async throws {
        try await withTestServer({ $0.maxUploadBytes = 1024 }) { server in
            let ann = try await server.register("ann")
            let lie = try await server.api.send(
                .POST, "/attachments?name=cat.png", bytes: Array("not a picture".utf8), contentType: "image/png",
                token: ann.token)
            #expect(lie.status == 415)
            #expect(try lie.decode(APIErrorBody.self).code == .unsupportedType)
            let empty = try await server.api.send(
                .POST, "/attachments", bytes: [], contentType: "image/png", token: ann.token)
            #expect(empty.status == 400)
            #expect(try empty.decode(APIErrorBody.self).code == .emptyUpload)
            let big = try await server.api.send(
                .POST, "/attachments", bytes: Array(repeating: 7, count: 4096), contentType: "application/octet-stream",
                token: ann.token)
            #expect(big.status == 413)
            #expect(try big.decode(APIErrorBody.self).code == .tooLarge)
            let form = try await server.api.send(
                .POST, "/attachments", bytes: Array("--b\r\n\r\n".utf8), contentType: "multipart/form-data; boundary=b",
                token: ann.token)
            #expect(form.status == 400)
            let anonymous = try await server.api.send(
                .POST, "/attachments", bytes: [1, 2, 3], contentType: "application/octet-stream")
            #expect(anonymous.status == 401)

            // Cut off: the headers promise 1000 bytes, 100 arrive, then the connection closes.
            let client = try await LineClient.connect(host: server.host, port: server.httpPort)
            try await client.write(
                "POST /api/v1/attachments HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(ann.token)\r\nContent-Type: application/octet-stream\r\nContent-Length: 1000\r\n\r\n"
                    + String(repeating: "a", count: 100))
            await client.close()

            // The server is still up, and no upload left a file behind (the cut-off one's temporary file goes once
            // the server sees the connection close).
            #expect(try await server.api.send(.GET, "/me", token: ann.token).status == 200)
            let directory = server.configuration.attachmentsDirectory
            try await eventually {
                let paths = (try? FileManager.default.subpathsOfDirectory(atPath: directory)) ?? []
                return paths.allSatisfy {
                    (try? FileManager.default.attributesOfItem(atPath: directory + "/" + $0)[.type]
                        as? FileAttributeType) != .typeRegular
                }
            }
        }
    }

    @Test(
        "an image in the lobby reaches /chat and TCP clients as text with its URL, which they can open without an account"
    )
    func tutorialClientsSeeAURL() async throws {
        try await withTestServer { server in
            let ann = try await server.register("ann")
            let chat = try await WebSocketTestClient.connect(host: server.host, port: server.httpPort, path: "/chat")
            let tcp = try await LineClient.connect(host: server.host, port: server.tcpPort)
            try await tcp.write("iam:luke\n")
            _ = await tcp.lines.next(timeout: TestDeadline.reply)
            let upload = try await server.api.send(
                .POST, "/attachments?name=a.png", bytes: pngBytes(width: 1, height: 1), contentType: "image/png",
                token: ann.token)
            let attachment = try upload.decode(AttachmentPayload.self)
            let socket = try await server.modernClient(ann)
            _ = try await socket.acked(
                .send(
                    SendRequest(room: "lobby", clientMsgID: "p", text: "look", attachments: [attachment.id.uuidString]))
            )
            _ = try await socket.acked(
                .react(ReactRequest(room: "lobby", clientMsgID: "r", target: 1, emoji: "👀")))
            _ = try await socket.acked(.send(SendRequest(room: "lobby", clientMsgID: "t", text: "tpyo")))
            _ = try await socket.acked(
                .edit(EditRequest(room: "lobby", clientMsgID: "e", target: 3, text: "typo fixed")))
            _ = try await socket.acked(.send(SendRequest(room: "lobby", clientMsgID: "s", text: "secret")))
            _ = try await socket.acked(.delete(DeleteRequest(room: "lobby", clientMsgID: "d", target: 5)))
            _ = try await socket.acked(.send(SendRequest(room: "lobby", clientMsgID: "q", text: "after")))
            let url = "http://\(server.host):\(server.httpPort)/api/v1/attachments/\(attachment.id.uuidString)"
            // Live: messages as sent; the reaction, the edit and the delete are not shown.
            #expect(try await Self.annsTexts(on: chat, count: 4) == ["look \(url)", "tpyo", "secret", "after"])
            var tcpLines: [String] = []
            while tcpLines.count < 4, let line = await tcp.lines.next(timeout: TestDeadline.reply) {
                if line.hasPrefix("ann:") { tcpLines.append(line) }
            }
            #expect(tcpLines == ["ann:look \(url)", "ann:tpyo", "ann:secret", "ann:after"])
            // History for a client that connects now: messages as they stand, the deleted one gone.
            let late = try await WebSocketTestClient.connect(host: server.host, port: server.httpPort, path: "/chat")
            #expect(try await Self.annsTexts(on: late, count: 3) == ["look \(url)", "typo fixed", "after"])
            #expect(try await server.api.get("/attachments/\(attachment.id)").status == 200)
        }
    }
}

extension AttachmentTests {
    /// The texts of the next `count` `/chat` frames from ann.
    static func annsTexts(on chat: WebSocketTestClient, count: Int) async throws -> [String] {
        var texts: [String] = []
        while texts.count < count {
            let frame = try await chat.nextJSON([String: AnyDecodable].self)
            if case .string(let user)? = frame["user"]?.value, user == "ann",
                case .string(let text)? = frame["message"]?.value
            {
                texts.append(text)
            }
        }
        return texts
    }
}

/// Just enough of a JSON value to read the strings of a `/chat` frame.
struct AnyDecodable: Decodable {
    enum Value {
        case string(String)
        case other
    }
    let value: Value
    init(from decoder: any Decoder) throws {
        self.value = (try? decoder.singleValueContainer().decode(String.self)).map(Value.string) ?? .other
    }
}

extension AttachmentTests {
    @Test(
        "a node starting on a shared attachments directory deletes only its own half-received uploads, not another node's"
    )
    func startUpSparesOtherNodesUploads() async throws {
        let attachments = TestServer.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: attachments) }
        let files = FileManager.default
        for node in ["A", "B"] {
            try files.createDirectory(atPath: "\(attachments)/tmp/\(node)", withIntermediateDirectories: true)
            #expect(files.createFile(atPath: "\(attachments)/tmp/\(node)/upload-1", contents: Data("half".utf8)))
        }
        try await withTestServer({
            $0.nodeName = "B"
            $0.attachmentsPath = attachments
        }) { server in
            #expect(files.fileExists(atPath: "\(attachments)/tmp/A/upload-1"))
            #expect(!files.fileExists(atPath: "\(attachments)/tmp/B/upload-1"))
            // Its own uploads are received in its own folder.
            let ann = try await server.register("ann")
            let upload = try await server.api.send(
                .POST, "/attachments?name=a.png", bytes: pngBytes(width: 1, height: 1), contentType: "image/png",
                token: ann.token)
            #expect(upload.status == 201)
            #expect(files.fileExists(atPath: "\(attachments)/tmp/B"))
        }
    }
}
