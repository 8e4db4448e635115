import ChatProtocol
import ChatServer
import ChatTestSupport
import Foundation
import NIOHTTP1
import Testing

/// Administrators, deactivation, the audit log, registration and the tutorial protocols (PROTOCOL.md §10), on
/// SQLite and (with `CHAT_TEST_DATABASE=postgres`) PostgreSQL.
@Suite("Administration")
struct AdministrationTests {
    @Test("the first administrator is made at the command line; every admin route answers 403 to anyone else")
    func firstAdministrator() async throws {
        try await withTestServer { server in
            let ann = try await server.register("ann")
            let bob = try await server.register("bob")
            let bobID = bob.user.id.uuidString
            let adminRoutes: [(APIRoute, [String])] = [
                (.adminUsers, []), (.adminUser, [bobID]), (.adminDeactivate, [bobID]), (.adminReactivate, [bobID]),
                (.adminGrant, [bobID]),
                (.adminRevoke, [bobID]), (.adminAudit, []),
            ]
            for (route, arguments) in adminRoutes {
                let refused = try await server.api.send(route, arguments: arguments, token: ann.token)
                #expect(refused.status == 403, "\(route)")
                #expect(try refused.decode(APIErrorBody.self).code == .forbidden, "\(route)")
                let anonymous = try await server.api.send(route, arguments: arguments)
                #expect(anonymous.status == 401, "\(route)")
            }
            #expect(try await server.api.send(.GET, "/me", token: ann.token).decode(UserProfile.self).admin == nil)

            let report = try await server.admin("grant", "ann")
            #expect(report.contains("ann is now active, an administrator"), "\(report)")
            #expect(try await server.api.send(.GET, "/me", token: ann.token).decode(UserProfile.self).admin == true)
            let page = try await server.api.send(.adminUsers, token: ann.token)
                .decode(AdminUserPage.self)
            #expect(page.users.map(\.profile.username) == ["ann", "bob"])
            #expect(page.users.map(\.admin) == [true, false])
            #expect(page.users.allSatisfy { !$0.deactivated && $0.createdAt != nil })
            #expect(page.next == nil)
            let one = try await server.api.send(.adminUser, bob.user.id.uuidString, token: ann.token)
            #expect(try one.decode(AdminUser.self).profile.username == "bob")
            let unknown = try await server.api.send(.adminUser, UUID().uuidString, token: ann.token)
            #expect(try unknown.status == 404 && unknown.decode(APIErrorBody.self).code == .unknownUser)
            let listed = try await server.admin("list-users")
            #expect(listed.contains("ann\tyes\tno\tann") && listed.contains("bob\tno\tno\tbob"), "\(listed)")
            // Nothing was changed by the refused requests: only the grant is in the log.
            let audit = try await server.api.send(.adminAudit, token: ann.token)
                .decode(AuditPage.self)
            #expect(audit.entries.map(\.action) == ["grant"])
            #expect(audit.entries.first?.actorName == "operator" && audit.entries.first?.actor == nil)
            #expect(audit.entries.first?.detail == "ann")
        }
    }

    @Test(
        "deactivation closes the account's sockets with 4003, refuses its tokens and its login, hides it from people search, and keeps its messages; reactivation lets it sign in again"
    )
    func deactivation() async throws {
        try await withTestServer { server in
            let admin = try await server.registerAdministrator()
            let bob = try await server.register("bob")
            let socket = try await server.modernClient(bob)
            _ = try await socket.next(.resumed, as: ResumedFrame.self)
            _ = try await socket.acked(.send(SendRequest(room: "lobby", clientMsgID: "b1", text: "before")))

            let deactivated = try await server.api.send(.adminDeactivate, bob.user.id.uuidString, token: admin.token)
            #expect(deactivated.status == 200)
            #expect(try deactivated.decode(AdminUser.self).deactivated)
            #expect(try await socket.nextCloseCode(timeout: .seconds(10)) == 4003)
            #expect(try await server.api.send(.GET, "/me", token: bob.token).status == 401)
            let login = try await server.api.send(
                .POST, "/login", json: LoginRequest(username: "bob", password: "correct horse"))
            #expect(login.status == 403)
            #expect(try login.decode(APIErrorBody.self).code == .accountDisabled)
            // A wrong password learns nothing about the account.
            let guess = try await server.api.send(
                .POST, "/login", json: LoginRequest(username: "bob", password: "guess"))
            #expect(try guess.decode(APIErrorBody.self).code == .invalidCredentials)
            let found = try await server.api.send(.GET, "/users?query=bob", token: admin.token)
                .decode([UserProfile].self)
            #expect(found.isEmpty)
            let history = try await server.api.send(.history, "lobby", token: admin.token)
                .decode(HistoryPage.self)
            #expect(history.messages.contains { $0.text == "before" && $0.sender.id == bob.user.id })
            // The administrators' list still has it, marked.
            let listed = try await server.api.send(.adminUsers, query: [("query", "bob")], token: admin.token)
                .decode(AdminUserPage.self)
            #expect(listed.users.map(\.deactivated) == [true])

            let reactivated = try await server.api.send(.adminReactivate, bob.user.id.uuidString, token: admin.token)
            #expect(try reactivated.decode(AdminUser.self).deactivated == false)
            #expect(
                try await server.api.send(
                    .POST, "/login", json: LoginRequest(username: "bob", password: "correct horse")
                ).status == 200)
            let audit = try await server.api.send(.adminAudit, token: admin.token)
                .decode(AuditPage.self)
            #expect(audit.entries.map(\.action) == ["grant", "deactivate", "reactivate"])
            #expect(audit.entries.dropFirst().allSatisfy { $0.actor == admin.user.id && $0.address == "127.0.0.1" })
            #expect(audit.entries.dropFirst().allSatisfy { $0.target == bob.user.id.uuidString })
        }
    }

    @Test("the last active administrator can be neither revoked nor deactivated, over the API or at the command line")
    func lastAdministrator() async throws {
        try await withTestServer { server in
            let ann = try await server.register("ann")
            let bob = try await server.register("bob")
            _ = try await server.admin("grant", "ann")
            for route in [APIRoute.adminRevoke, .adminDeactivate] {
                let refused = try await server.api.send(route, ann.user.id.uuidString, token: ann.token)
                #expect(refused.status == 409, "\(route)")
                #expect(try refused.decode(APIErrorBody.self).code == .lastAdministrator, "\(route)")
            }
            for command in ["revoke", "deactivate"] {
                await #expect(throws: ToolFailure.self) { try await server.admin(command, "ann") }
            }
            // Nothing was half done: ann is still an active administrator, and the log has the grant alone.
            #expect(try await server.api.send(.GET, "/me", token: ann.token).decode(UserProfile.self).admin == true)
            let audit = try await server.api.send(.adminAudit, token: ann.token)
                .decode(AuditPage.self)
            #expect(audit.entries.map(\.action) == ["grant"])

            // With a second administrator, the first may step down.
            #expect(
                try await server.api.send(.adminGrant, bob.user.id.uuidString, token: ann.token)
                    .status == 200)
            let revoked = try await server.api.send(.adminRevoke, ann.user.id.uuidString, token: ann.token)
            #expect(try revoked.decode(AdminUser.self).admin == false)
            #expect(
                try await server.api.send(.adminUsers, token: ann.token).status == 403)
            // Bob is the only administrator now: he cannot step down.
            #expect(
                try await server.api.send(.adminRevoke, bob.user.id.uuidString, token: bob.token)
                    .status == 409)
        }
    }

    @Test(
        "an administrator deletes any message, a tutorial client's too: every member sees a delete event sent by the administrator; only administrators may"
    )
    func deleteAnyMessage() async throws {
        try await withTestServer { server in
            let admin = try await server.registerAdministrator()
            let ann = try await server.register("ann")
            let annSocket = try await server.modernClient(ann)
            _ = try await annSocket.next(.resumed, as: ResumedFrame.self)
            let tcp = try await server.joinedLineClient("troll")
            try await tcp.write("msg:spam spam\n")
            let spam = try await annSocket.nextEvent(.message)
            #expect(spam.text == "spam spam")

            let refused = try await server.api.send(.adminDeleteMessage, "lobby", "\(spam.seq)", token: ann.token)
            #expect(refused.status == 403)
            #expect(
                try await server.api.send(.adminDeleteMessage, "lobby", "\(spam.seq)", token: admin.token).status == 204
            )
            let removal = try await annSocket.nextEvent(.delete)
            #expect(removal.target == spam.seq && removal.sender.id == admin.user.id)
            let history = try await server.api.send(.history, "lobby", token: ann.token).decode(HistoryPage.self)
            #expect(history.messages.first { $0.seq == spam.seq }?.deleted == true)
            #expect(
                !String(decoding: try await server.api.send(.history, "lobby", token: ann.token).body, as: UTF8.self)
                    .contains("spam spam"))

            let again = try await server.api.send(.adminDeleteMessage, "lobby", "\(spam.seq)", token: admin.token)
            #expect(again.status == 400)
            #expect(try again.decode(APIErrorBody.self).code == .badTarget)
            #expect(try await server.api.send(.adminDeleteMessage, "lobby", "999", token: admin.token).status == 400)
            #expect(try await server.api.send(.adminDeleteMessage, "lobby", "first", token: admin.token).status == 400)
            let unknown = try await server.api.send(.adminDeleteMessage, "no-such-room", "1", token: admin.token)
            #expect(unknown.status == 404)
            #expect(try unknown.decode(APIErrorBody.self).code == .notFound)
            let audit = try await server.api.send(.adminAudit, token: admin.token).decode(AuditPage.self)
            #expect(audit.entries.map(\.action) == ["grant", "delete-message"])
            #expect(audit.entries.last?.target == "lobby/\(spam.seq)")
        }
    }

    @Test("bad input: unknown users and commands, bad pages; each a clear error, nothing changed")
    func badInput() async throws {
        try await withTestServer { server in
            let ann = try await server.register("ann")
            _ = try await server.admin("grant", "ann")
            for id in [UUID().uuidString, "not-a-uuid"] {
                let unknown = try await server.api.send(.adminDeactivate, id, token: ann.token)
                #expect(unknown.status == 404)
                #expect(try unknown.decode(APIErrorBody.self).code == .unknownUser)
            }
            for query in [[("limit", "0")], [("limit", "201")], [("limit", "ten")]] {
                let bad = try await server.api.send(.adminUsers, query: query, token: ann.token)
                #expect(bad.status == 400, "\(query)")
                #expect(try bad.decode(APIErrorBody.self).code == .invalidLimit, "\(query)")
            }
            let badAfter = try await server.api.send(.adminAudit, query: [("after", "yesterday")], token: ann.token)
            #expect(badAfter.status == 400)
            for arguments in [["promote", "ann"], ["grant"], ["grant", "nobody"], ["grant", "ann", "--port", "x"]] {
                do {
                    _ = try await AdminTool.run(
                        arguments: arguments, environment: ["CHAT_DATA_DIR": server.configuration.dataDirectory])
                    Issue.record("admin \(arguments) was accepted")
                } catch let failure as ToolFailure {
                    #expect(failure.description.hasPrefix("admin"), "\(failure)")
                }
            }
            let audit = try await server.api.send(.adminAudit, token: ann.token)
                .decode(AuditPage.self)
            #expect(audit.entries.map(\.action) == ["grant"])
        }
    }

    @Test("the users list and the audit log are paged")
    func paging() async throws {
        try await withTestServer { server in
            let admin = try await server.register("admin")
            _ = try await server.admin("grant", "admin")
            for name in ["carol", "dan", "erin"] { _ = try await server.register(name) }
            var names: [String] = []
            var after: String?
            repeat {
                let page = try await server.api.send(
                    .adminUsers, query: [("limit", "2"), ("after", after)], token: admin.token
                ).decode(AdminUserPage.self)
                #expect(page.users.count <= 2)
                names += page.users.map(\.profile.username)
                after = page.next
            } while after != nil
            #expect(names == ["admin", "carol", "dan", "erin"])
            for name in ["carol", "dan"] { _ = try await server.admin("deactivate", name) }
            let first = try await server.api.send(
                .adminAudit, query: [("limit", "2")], token: admin.token
            ).decode(AuditPage.self)
            #expect(first.entries.map(\.action) == ["grant", "deactivate"])
            let second = try await server.api.send(
                .adminAudit, query: [("after", first.next.map(String.init))], token: admin.token
            ).decode(AuditPage.self)
            #expect(second.entries.map(\.detail) == ["dan"])
            #expect(second.next == nil)
        }
    }

    @Test("--registration closed: register answers 403 registration_closed, /config says so, sign-in still works")
    func registrationClosed() async throws {
        let first = try await TestServer.start()
        _ = try await first.register("ann")
        await first.stop()
        // The same data (and database), on ports of its own.
        let server = try await TestServer.start(dataDirectory: first.configuration.dataDirectory) {
            $0.registration = "closed"
        }
        do {
            let refused = try await server.api.send(
                .POST, "/register", json: RegisterRequest(username: "bob", password: "correct horse"))
            #expect(refused.status == 403)
            #expect(try refused.decode(APIErrorBody.self).code == .registrationClosed)
            #expect(try await server.api.send(.GET, "/config").decode(ServerLimits.self).registration == "closed")
            #expect(
                try await server.api.send(
                    .POST, "/login", json: LoginRequest(username: "ann", password: "correct horse")
                ).status == 200)
            await server.stop()
        } catch {
            await server.stop()
            throw error
        }
    }

    @Test("--tutorial-protocols none: /chat and /echo answer 404, no TCP port is opened, the modern API works")
    func tutorialProtocolsOff() async throws {
        try await withTestServer({ $0.tutorialProtocols = [] }) { server in
            #expect(server.tcpPort == 0)
            for path in ["/chat", "/echo/?id=ann"] {
                await #expect(throws: (any Error).self, "\(path)") {
                    try await WebSocketTestClient.connect(host: server.host, port: server.httpPort, path: path)
                }
                #expect(try await server.api.get(path).status == 404, "\(path)")
            }
            let ann = try await server.register("ann")
            let socket = try await server.modernClient(ann)
            _ = try await socket.acked(.send(SendRequest(room: "lobby", clientMsgID: "m", text: "hi")))
        }
        try await withTestServer({ $0.tutorialProtocols = [.tcp] }) { server in
            let tcp = try await server.joinedLineClient("ann")
            try await tcp.write("msg:hello\n")
            #expect(try await tcp.nextLine() == "ann:hello")
            #expect(try await server.api.get("/chat").status == 404)
        }
    }
}

@Suite("Invitations and password resets")
struct InvitationTests {
    @Test(
        "--registration invite: no code is 403 invite_required; an invitation makes its uses, joins its rooms, then is refused"
    )
    func registrationByInvitation() async throws {
        try await withTestServer({ $0.registration = "invite" }) { server in
            let refused = try await server.api.send(
                .POST, "/register", json: RegisterRequest(username: "x1", password: "correct horse"))
            #expect(refused.status == 403)
            #expect(try refused.decode(APIErrorBody.self).code == .inviteRequired)
            _ = try await server.admin("invite")  // the operator's first invitation, for the first account
            let first = try await server.api.send(.GET, "/config").decode(ServerLimits.self)
            #expect(first.registration == "invite")
            let code = try #require(try await server.admin("invite", "--max-uses", "1").split(separator: "/").last)
            let root = try await server.api.send(
                .POST, "/register",
                json: RegisterRequest(username: "root", password: "correct horse", invite: String(code))
            )
            #expect(root.status == 201)
            let admin = try root.decode(AuthSession.self)
            _ = try await server.admin("grant", "root")
            let channel = try await server.api.send(
                .POST, "/rooms", json: CreateRoomRequest(kind: "channel", name: "Welcome"), token: admin.token
            ).decode(RoomSummary.self)

            let created = try await server.api.send(
                .createInvite, json: InvitationRequest(maxUses: 1, expiresInHours: 24, rooms: [channel.id]),
                token: admin.token)
            #expect(created.status == 201)
            let invitation = try created.decode(InvitationPayload.self)
            #expect(invitation.url.hasSuffix("/#/invite/\(invitation.code)"))
            #expect(invitation.uses == 0 && invitation.maxUses == 1 && invitation.rooms == [channel.id])
            let bob = try await server.api.send(
                .POST, "/register",
                json: RegisterRequest(username: "bob", password: "correct horse", invite: invitation.code)
            )
            #expect(bob.status == 201)
            let bobRooms = try await server.api.send(.GET, "/rooms", token: try bob.decode(AuthSession.self).token)
                .decode([RoomSummary].self)
            #expect(Set(bobRooms.map(\.id)) == ["lobby", channel.id])
            for code in [invitation.code, "not-a-code"] {
                let again = try await server.api.send(
                    .POST, "/register", json: RegisterRequest(username: "cyd", password: "correct horse", invite: code))
                #expect(again.status == 400)
                #expect(try again.decode(APIErrorBody.self).code == .invalidInvite)
            }
            #expect(
                try await server.api.send(
                    .POST, "/login", json: LoginRequest(username: "cyd", password: "correct horse")
                ).status == 401)
            let listed = try await server.api.send(.invites, token: admin.token).decode([InvitationPayload].self)
            #expect(listed.first { $0.code == invitation.code }?.uses == 1)
            #expect(listed.count == 3)
        }
    }

    @Test(
        "who may invite: administrators, and members only with --members-may-invite; each sees and revokes their own; bad requests are 400 or 403"
    )
    func whoMayInvite() async throws {
        try await withTestServer { server in
            let admin = try await server.registerAdministrator()
            let ann = try await server.register("ann")
            let refused = try await server.api.send(.createInvite, json: InvitationRequest(), token: ann.token)
            #expect(refused.status == 403)
            #expect(try refused.decode(APIErrorBody.self).code == .forbidden)
            #expect(try await server.api.send(.invites, token: ann.token).decode([InvitationPayload].self).isEmpty)
            let mine = try await server.api.send(.createInvite, json: InvitationRequest(), token: admin.token)
                .decode(InvitationPayload.self)
            #expect(mine.maxUses == nil && mine.expiresAt == nil)
            // Open registration: a code is welcome, not needed.
            let withCode = try await server.api.send(
                .POST, "/register", json: RegisterRequest(username: "dan", password: "correct horse", invite: mine.code)
            )
            #expect(withCode.status == 201)
            #expect(try await server.api.send(.deleteInvite, mine.code, token: ann.token).status == 404)
            #expect(try await server.api.send(.deleteInvite, mine.code, token: admin.token).status == 204)
            #expect(try await server.api.send(.deleteInvite, mine.code, token: admin.token).status == 404)
        }
        try await withTestServer({ $0.membersMayInvite = true }) { server in
            let ann = try await server.register("ann")
            let bob = try await server.register("bob")
            let dm = try await server.api.send(.POST, "/dms", json: UsernameRequest(username: "bob"), token: ann.token)
                .decode(RoomSummary.self)
            let bobs = try await server.api.send(
                .POST, "/rooms", json: CreateRoomRequest(kind: "group", name: "Bob's"), token: bob.token
            ).decode(RoomSummary.self)
            let bad: [(InvitationRequest, Int, ErrorCode)] = [
                (InvitationRequest(maxUses: 0), 400, .invalidBody),
                (InvitationRequest(expiresInHours: 9000), 400, .invalidBody),
                (InvitationRequest(rooms: [dm.id]), 400, .invalidBody),
                (InvitationRequest(rooms: [bobs.id]), 403, .forbidden),
                (InvitationRequest(rooms: ["no-such-room"]), 403, .forbidden),
            ]
            for (request, status, code) in bad {
                let reply = try await server.api.send(.createInvite, json: request, token: ann.token)
                #expect(reply.status == status, "\(request)")
                #expect(try reply.decode(APIErrorBody.self).code == code, "\(request)")
            }
            let anns = try await server.api.send(.createInvite, json: InvitationRequest(maxUses: 5), token: ann.token)
            #expect(anns.status == 201)
            let code = try anns.decode(InvitationPayload.self).code
            #expect(try await server.api.send(.invites, token: bob.token).decode([InvitationPayload].self).isEmpty)
            #expect(try await server.api.send(.deleteInvite, code, token: bob.token).status == 404)
            #expect(try await server.api.send(.deleteInvite, code, token: ann.token).status == 204)
        }
    }

    @Test(
        "a password reset link works once: it sets the password, signs every device out, and the audit log has it")
    func passwordReset() async throws {
        try await withTestServer { server in
            let admin = try await server.registerAdministrator()
            let bob = try await server.register("bob")
            let socket = try await server.modernClient(bob)
            _ = try await socket.next(.resumed, as: ResumedFrame.self)
            let made = try await server.api.send(.adminPasswordReset, bob.user.id.uuidString, token: admin.token)
            #expect(made.status == 201)
            let link = try made.decode(PasswordResetLink.self)
            #expect(link.url.hasSuffix("/#/reset/\(link.code)"))
            let weak = try await server.api.send(
                .passwordReset, json: PasswordResetRequest(code: link.code, newPassword: "short"))
            #expect(try weak.decode(APIErrorBody.self).code == .invalidPassword)
            let reset = try await server.api.send(
                .passwordReset, json: PasswordResetRequest(code: link.code, newPassword: "battery staple"))
            #expect(reset.status == 200)
            let session = try reset.decode(AuthSession.self)
            #expect(session.user.username == "bob")
            #expect(try await socket.nextCloseCode(timeout: .seconds(10)) == 4001)
            #expect(try await server.api.send(.GET, "/me", token: bob.token).status == 401)
            let again = try await server.api.send(
                .passwordReset, json: PasswordResetRequest(code: link.code, newPassword: "another one"))
            #expect(again.status == 400)
            #expect(try again.decode(APIErrorBody.self).code == .invalidReset)
            #expect(
                try await server.api.send(
                    .POST, "/login", json: LoginRequest(username: "bob", password: "battery staple")
                ).status == 200)
            // At the command line: the link is printed.
            let printed = try await server.admin("reset-password", "bob")
            let code = try #require(printed.split(separator: "\n").first?.split(separator: "/").last)
            #expect(
                try await server.api.send(
                    .passwordReset, json: PasswordResetRequest(code: String(code), newPassword: "third password")
                ).status == 200)
            let audit = try await server.api.send(.adminAudit, token: admin.token).decode(AuditPage.self)
            #expect(audit.entries.map(\.action) == ["grant", "password-reset", "password-reset"])
            let signedIn = try await server.api.send(
                .POST, "/login", json: LoginRequest(username: "bob", password: "third password")
            ).decode(AuthSession.self)
            #expect(
                try await server.api.send(.adminPasswordReset, UUID().uuidString, token: admin.token).status == 404)
            #expect(
                try await server.api.send(.adminPasswordReset, admin.user.id.uuidString, token: signedIn.token).status
                    == 403)
        }
    }
}

extension TestServer {
    /// Registers `root` and makes it an administrator at the command line.
    func registerAdministrator() async throws -> AuthSession {
        let root = try await self.register("root")
        _ = try await self.admin("grant", "root")
        return root
    }
}
