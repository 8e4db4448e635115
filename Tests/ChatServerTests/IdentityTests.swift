import ChatProtocol
import ChatServer
import ChatTestSupport
import Foundation
import NIOHTTP1
import Testing

/// No one speaks as someone else, and a revoked token stops working everywhere at once (issue 14, items 9–12).
@Suite("Identity and sessions (docs/SECURITY.md, PROTOCOL.md §6)")
struct IdentityTests {
    @Test("a /chat client naming itself with an account's id is never that account")
    func tutorialSenderCannotImpersonate() async throws {
        try await withTestServer { server in
            let ann = try await server.register("ann")
            let annSocket = try await server.modernClient(ann)
            _ = try await annSocket.next(.resumed, as: ResumedFrame.self)
            let impostor = try await server.chatClient()
            try await impostor.send(text: tutorialFrame("I am Ann", user: "ann", userID: ann.user.id))
            // The /chat client still sees its own id echoed (the tutorial's client needs it to draw its bubbles) …
            var echoed = try await impostor.nextJSON(TutorialMessage.self)
            while echoed.message != "I am Ann" { echoed = try await impostor.nextJSON(TutorialMessage.self) }
            #expect(echoed.userID == ann.user.id)
            // … but modern clients see a tutorial sender with an id of its own, never Ann's.
            let seen = try await annSocket.nextEvent(.message)
            #expect(seen.text == "I am Ann")
            #expect(seen.sender.via == "chat")
            #expect(seen.sender.id != ann.user.id)
            // And Ann cannot edit or delete it as hers.
            #expect(
                try await annSocket.errorCode(
                    for: .edit(EditRequest(room: "lobby", clientMsgID: "e1", target: seen.seq, text: "x")))
                    == .notYours)
            #expect(
                try await annSocket.errorCode(
                    for: .delete(DeleteRequest(room: "lobby", clientMsgID: "d1", target: seen.seq))) == .notYours)
            // It does not count as hers in her unread count either.
            let rooms = try await server.api.send(.GET, "/rooms", token: ann.token).decode([RoomSummary].self)
            #expect(rooms.first { $0.id == "lobby" }?.unreadCount == 1)
        }
    }

    @Test("TCP senders are marked too, and keep a stable id")
    func tcpSenderIsMarked() async throws {
        try await withTestServer { server in
            let ann = try await server.register("ann")
            let annSocket = try await server.modernClient(ann)
            _ = try await annSocket.next(.resumed, as: ResumedFrame.self)
            let tcp = try await server.joinedLineClient("dog")
            try await tcp.write("msg:one\n")
            try await tcp.write("msg:two\n")
            let first = try await annSocket.nextEvent(.message)
            let second = try await annSocket.nextEvent(.message)
            #expect(first.sender.via == "tcp" && second.sender.via == "tcp")
            #expect(first.sender.id == second.sender.id)
        }
    }

    @Test("logout closes the sockets opened with that token (4001), and the token is refused after")
    func logoutClosesSockets() async throws {
        try await withTestServer { server in
            let ann = try await server.register("ann")
            let other = try await server.api.send(
                .POST, "/login", json: LoginRequest(username: "ann", password: "correct horse")
            ).decode(AuthSession.self)
            let socket = try await server.modernClient(ann)
            let otherDevice = try await server.modernClient(other)
            #expect(try await server.api.send(.POST, "/logout", token: ann.token).status == 204)
            #expect(try await socket.nextCloseCode(timeout: .seconds(10)) == 4001)
            await #expect(throws: (any Error).self) {
                try await WebSocketTestClient.connect(
                    host: server.host, port: server.httpPort, path: "/api/v1/ws?token=\(ann.token)")
            }
            // The other device's token was not revoked: it goes on.
            try await otherDevice.send(
                .send(SendRequest(room: "lobby", clientMsgID: "still", text: "here")))
            #expect(try await otherDevice.next(.ack, as: AckFrame.self).clientMsgID == "still")
        }
    }

    @Test("a token that expires closes its sockets at that moment")
    func expiryClosesSockets() async throws {
        try await withTestServer({ $0.tokenLifetime = 10 }) { server in
            let ann = try await server.register("ann")
            let socket = try await WebSocketTestClient.connect(
                host: server.host, port: server.httpPort, path: "/api/v1/ws?token=\(ann.token)")
            #expect(try await socket.nextCloseCode(timeout: .seconds(30)) == 4001)
        }
    }

    @Test(
        "changing the password signs out every device: old tokens refused, their sockets closed, a new session returned"
    )
    func passwordChange() async throws {
        try await withTestServer { server in
            let ann = try await server.register("ann", password: "old password")
            let other = try await server.api.send(
                .POST, "/login", json: LoginRequest(username: "ann", password: "old password")
            ).decode(AuthSession.self)
            let otherSocket = try await server.modernClient(other)
            let wrong = try await server.api.send(
                .POST, "/me/password", json: PasswordChange(password: "not it", newPassword: "new password"),
                token: ann.token)
            #expect(wrong.status == 401)
            let tooLong = try await server.api.send(
                .POST, "/me/password",
                json: PasswordChange(password: "old password", newPassword: String(repeating: "x", count: 73)),
                token: ann.token)
            #expect(try tooLong.decode(APIErrorBody.self).code == .invalidPassword)
            let changed = try await server.api.send(
                .POST, "/me/password", json: PasswordChange(password: "old password", newPassword: "new password"),
                token: ann.token)
            #expect(changed.status == 200)
            let session = try changed.decode(AuthSession.self)
            #expect(try await otherSocket.nextCloseCode(timeout: .seconds(10)) == 4001)
            #expect(try await server.api.send(.GET, "/me", token: ann.token).status == 401)
            #expect(try await server.api.send(.GET, "/me", token: other.token).status == 401)
            #expect(try await server.api.send(.GET, "/me", token: session.token).status == 200)
            #expect(
                try await server.api.send(
                    .POST, "/login", json: LoginRequest(username: "ann", password: "old password")
                ).status == 401)
            #expect(
                try await server.api.send(
                    .POST, "/login", json: LoginRequest(username: "ann", password: "new password")
                ).status == 200)
        }
    }

    @Test("a password over 72 bytes is refused: bcrypt would ignore its end")
    func passwordByteLimit() async throws {
        try await withTestServer { server in
            let long = String(repeating: "A", count: 72) + "secret tail"
            let refused = try await server.api.send(
                .POST, "/register", json: RegisterRequest(username: "ann", password: long))
            #expect(refused.status == 400)
            #expect(try refused.decode(APIErrorBody.self).code == .invalidPassword)
            let multibyte = String(repeating: "é", count: 37)  // 37 characters, 74 bytes
            #expect(
                try await server.api.send(
                    .POST, "/register", json: RegisterRequest(username: "bob", password: multibyte)
                ).status == 400)
            _ = try await server.register("cat", password: String(repeating: "A", count: 72))
        }
    }

    @Test(
        "wrong passwords for one account from one address lock neither that address for others nor the owner elsewhere")
    func loginBucketsAreSeparate() async throws {
        try await withTestServer { server in
            _ = try await server.register("jon", password: "right password")
            _ = try await server.register("kim", password: "kim password")
            for _ in 0..<10 {
                let reply = try await server.api.send(
                    .POST, "/login", json: LoginRequest(username: "jon", password: "wrong password"))
                #expect(reply.status == 401)
            }
            #expect(
                try await server.api.send(
                    .POST, "/login", json: LoginRequest(username: "jon", password: "right password")
                ).status == 429)
            // Someone else behind the same address signs in.
            #expect(
                try await server.api.send(
                    .POST, "/login", json: LoginRequest(username: "kim", password: "kim password")
                ).status == 200)
        }
    }

    @Test("a wrong password and an unknown username get the same answer")
    func sameAnswerForUnknownUsers() async throws {
        try await withTestServer { server in
            _ = try await server.register("jon", password: "right password")
            let wrong = try await server.api.send(
                .POST, "/login", json: LoginRequest(username: "jon", password: "wrong password"))
            let unknown = try await server.api.send(
                .POST, "/login", json: LoginRequest(username: "nobody", password: "wrong password"))
            #expect(wrong.status == 401)
            #expect(unknown.status == wrong.status)
            #expect(unknown.body == wrong.body)
        }
    }
}
