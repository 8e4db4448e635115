import ChatProtocol
import ChatTestSupport
import Foundation
import NIOHTTP1
import Testing

/// Bots (PROTOCOL.md §9.13) over real HTTP and WebSocket connections, on SQLite and PostgreSQL.
@Suite("Bots: accounts a person makes for a program, with a token that does not expire")
struct BotTests {
    /// What `/me` says about the holder of `token`, as a session for the test clients.
    static func session(_ token: String, on server: TestServer) async throws -> AuthSession {
        let profile = try await server.api.send(.GET, "/me", token: token).decode(UserProfile.self)
        return AuthSession(token: token, expiresAt: 0, user: profile)
    }

    @Test(
        "a bot made by its owner signs in with its token only, is a member like anyone, sends over HTTP and the socket, and is marked as a bot"
    )
    func botIsAMember() async throws {
        try await withTestServer { server in
            let ann = try await server.register("ann")
            let bob = try await server.register("bob")
            let created = try await server.api.send(
                .createBot, json: BotCreateRequest(username: "ci-bot", displayName: "CI"), token: ann.token)
            #expect(created.status == 201)
            let bot = try created.decode(BotTokenPayload.self)
            #expect(bot.username == "ci-bot")
            let me = try await Self.session(bot.token, on: server)
            #expect(me.user.bot == true && me.user.displayName == "CI" && me.user.id == bot.id)
            #expect(ann.user.bot == nil)
            // No password opens it.
            let login = try await server.api.send(
                .POST, "/login", json: LoginRequest(username: "ci-bot", password: "correct horse"))
            #expect(login.status == 401)

            let group = try await server.api.send(
                .POST, "/rooms", json: CreateRoomRequest(kind: "group", name: "Builds", members: ["ci-bot", "bob"]),
                token: ann.token
            ).decode(RoomSummary.self)
            let members = try await server.api.send(.members, group.id, token: bob.token)
                .decode([RoomMemberPayload].self)
            #expect(members.first { $0.profile.username == "ci-bot" }?.profile.bot == true)
            #expect(members.first { $0.profile.username == "ann" }?.profile.bot == nil)

            let annSocket = try await server.modernClient(ann)
            _ = try await annSocket.next(.resumed, as: ResumedFrame.self)
            let posted = try await server.api.send(
                .postMessage, group.id, json: PostMessageRequest(text: "build 42 passed", clientMsgID: "b42"),
                token: bot.token)
            #expect(posted.status == 201)
            #expect(try await annSocket.nextEvent(.message).text == "build 42 passed")
            let botSocket = try await server.modernClient(me)
            _ = try await botSocket.next(.resumed, as: ResumedFrame.self)
            _ = try await botSocket.acked(.send(SendRequest(room: group.id, clientMsgID: "b43", text: "deployed")))
            let deployed = try await annSocket.nextEvent(.message)
            #expect(deployed.text == "deployed" && deployed.sender.id == bot.id)

            let mine = try await server.api.send(.bots, token: ann.token).decode(BotList.self)
            #expect(mine.bots.map(\.username) == ["ci-bot"] && mine.bots.first?.bot == true)
            #expect(try await server.api.send(.bots, token: bob.token).decode(BotList.self).bots.isEmpty)
        }
    }

    @Test(
        "a new token signs the old one out at once; deleting the bot signs it out for good, takes it out of its rooms, keeps what it said and its name"
    )
    func tokenAndDeletion() async throws {
        try await withTestServer { server in
            let ann = try await server.register("ann")
            let bot = try await server.api.send(
                .createBot, json: BotCreateRequest(username: "ci-bot"), token: ann.token
            )
            .decode(BotTokenPayload.self)
            let group = try await server.api.send(
                .POST, "/rooms", json: CreateRoomRequest(kind: "group", name: "Builds", members: ["ci-bot"]),
                token: ann.token
            ).decode(RoomSummary.self)
            _ = try await server.api.send(
                .postMessage, group.id, json: PostMessageRequest(text: "build 1 passed", clientMsgID: "b1"),
                token: bot.token)
            let oldSocket = try await server.modernClient(try await Self.session(bot.token, on: server))

            let renewed = try await server.api.send(.botToken, bot.id.uuidString, token: ann.token)
            #expect(renewed.status == 200)
            let fresh = try renewed.decode(BotTokenPayload.self)
            #expect(fresh.id == bot.id && fresh.token != bot.token)
            #expect(try await server.api.send(.GET, "/me", token: bot.token).status == 401)
            #expect(try await oldSocket.nextCloseCode() == 4001)
            #expect(try await server.api.send(.GET, "/me", token: fresh.token).status == 200)

            let freshSocket = try await server.modernClient(try await Self.session(fresh.token, on: server))
            #expect(try await server.api.send(.deleteBot, bot.id.uuidString, token: ann.token).status == 204)
            #expect(try await freshSocket.nextCloseCode() == 4003)
            #expect(try await server.api.send(.GET, "/me", token: fresh.token).status == 401)
            #expect(try await server.api.send(.bots, token: ann.token).decode(BotList.self).bots.isEmpty)
            let members = try await server.api.send(.members, group.id, token: ann.token)
                .decode([RoomMemberPayload].self)
            #expect(members.map(\.profile.username) == ["ann"])
            let page = try await server.api.send(.history, group.id, token: ann.token).decode(HistoryPage.self)
            #expect(page.messages.contains { $0.text == "build 1 passed" && $0.sender.id == bot.id })
            // Its name stays taken: no one posts as it again.
            let again = try await server.api.send(
                .createBot, json: BotCreateRequest(username: "ci-bot"), token: ann.token)
            #expect(again.status == 409)
            #expect(try await server.api.send(.deleteBot, bot.id.uuidString, token: ann.token).status == 404)
        }
    }

    @Test("deleting my account deletes my bots: no one is left to manage them")
    func ownerDeleted() async throws {
        try await withTestServer { server in
            let ann = try await server.register("ann")
            let bot = try await server.api.send(
                .createBot, json: BotCreateRequest(username: "ci-bot"), token: ann.token
            )
            .decode(BotTokenPayload.self)
            let socket = try await server.modernClient(try await Self.session(bot.token, on: server))
            let deleted = try await server.api.send(
                .deleteMe, json: AccountDeletionRequest(password: "correct horse"), token: ann.token)
            #expect(deleted.status == 204)
            #expect(try await socket.nextCloseCode() == 4003)
            #expect(try await server.api.send(.GET, "/me", token: bot.token).status == 401)
        }
    }

    @Test("bad input and someone else's bot are refused with their codes, and nothing is made")
    func refusals() async throws {
        try await withTestServer { server in
            let ann = try await server.register("ann")
            let bob = try await server.register("bob")
            let bot = try await server.api.send(
                .createBot, json: BotCreateRequest(username: "ci-bot"), token: ann.token
            )
            .decode(BotTokenPayload.self)
            let cases: [(BotCreateRequest, HTTPResponseStatus, ErrorCode)] = [
                (BotCreateRequest(username: "no"), .badRequest, .invalidUsername),
                (BotCreateRequest(username: "has space"), .badRequest, .invalidUsername),
                (BotCreateRequest(username: "fine-bot", displayName: "bad\u{7}name"), .badRequest, .invalidDisplayName),
                (BotCreateRequest(username: "BOB"), .conflict, .usernameTaken),
                (BotCreateRequest(username: "echo-bot"), .conflict, .usernameTaken),
                (BotCreateRequest(username: "ci-bot"), .conflict, .usernameTaken),
            ]
            for (body, status, code) in cases {
                let reply = try await server.api.send(.createBot, json: body, token: ann.token)
                #expect(reply.status == Int(status.code), "\(body.username)")
                #expect(try reply.decode(APIErrorBody.self).code == code, "\(body.username)")
            }
            let malformed = try await server.api.send(
                .POST, "/bots", bytes: Array("{\"username\":7}".utf8), contentType: "application/json",
                token: ann.token)
            #expect(malformed.status == 400)
            #expect(try await server.api.send(.createBot, json: BotCreateRequest(username: "x-bot")).status == 401)
            // A bot makes no bots.
            let byBot = try await server.api.send(
                .createBot, json: BotCreateRequest(username: "sub-bot"), token: bot.token)
            #expect(byBot.status == 403)
            // Bob cannot touch ann's bot, and an id that is no bot's is the same answer.
            for id in [bot.id.uuidString, bob.user.id.uuidString, "not-an-id"] {
                for route in [APIRoute.botToken, .deleteBot] {
                    let reply = try await server.api.send(route, id, token: bob.token)
                    #expect(reply.status == 404, "\(route) \(id)")
                    #expect(try reply.decode(APIErrorBody.self).code == .unknownBot)
                }
            }
            #expect(try await server.api.send(.GET, "/me", token: bot.token).status == 200)
            #expect(try await server.api.send(.bots, token: ann.token).decode(BotList.self).bots.count == 1)
        }
    }

    @Test("an account has at most 25 bots; deleting one makes room for another")
    func limit() async throws {
        try await withTestServer { server in
            let ann = try await server.register("ann")
            var last: BotTokenPayload?
            for number in 1...25 {
                let reply = try await server.api.send(
                    .createBot, json: BotCreateRequest(username: "bot-\(number)"), token: ann.token)
                #expect(reply.status == 201)
                last = try reply.decode(BotTokenPayload.self)
            }
            let over = try await server.api.send(
                .createBot, json: BotCreateRequest(username: "bot-26"), token: ann.token)
            #expect(over.status == 409)
            #expect(try over.decode(APIErrorBody.self).code == .tooManyBots)
            #expect(
                try await server.api.send(.POST, "/login", json: LoginRequest(username: "bot-26", password: "x")).status
                    == 401)
            _ = try await server.api.send(.deleteBot, try #require(last).id.uuidString, token: ann.token)
            let again = try await server.api.send(
                .createBot, json: BotCreateRequest(username: "bot-26"), token: ann.token)
            #expect(again.status == 201)
        }
    }
}
