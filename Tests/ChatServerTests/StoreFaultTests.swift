import ChatProtocol
import ChatTestSupport
import Foundation
import NIOHTTP1
import Testing

/// Every route answers a failing database with `503 unavailable` and `Retry-After` (PROTOCOL.md §6.1): the fault is
/// the server's, the same request may pass in a moment, and it never becomes `500`, `403` or `404`. Each route is
/// asked while the tables it reads are renamed away (on SQLite and PostgreSQL), then again once they are back. The
/// cases run one at a time: 43 servers at once beside the rest of the suite starve a two-core machine, and the tests
/// of one-second timeouts then fail for it.
@Suite("A failing database answers 503 on every route", .serialized)
struct StoreFaultTests {
    /// What a route's request is made of: two accounts, a group of theirs, a channel of bob's, an upload of ann's.
    struct Fixture: Sendable {
        let api: APIClient
        let ann: AuthSession
        let bob: AuthSession
        let group: String
        let channel: String
        let attachment: UUID
        /// Ann's bot.
        let bot: UUID
    }

    /// The tables whose loss each route must answer: sign-in (accounts and tokens), rooms (rooms, memberships and
    /// messages, while sign-in works) and attachments.
    static let signIn = ["users", "tokens"]
    static let rooms = ["rooms", "memberships", "messages"]
    static let attachments = ["attachments", "attachment_rooms"]
    /// Administrative changes are written with their audit entry in one transaction: without the log, nothing
    /// changes.
    static let audit = ["audit_log"]
    static let resets = ["password_resets"]
    static let invitations = ["invitations"]
    static let blocks = ["blocks"]
    static let restrictions = ["room_restrictions"]
    static let reports = ["reports"]
    static let mentions = ["mentions"]
    static let push = ["push_subscriptions"]
    static let webhooks = ["incoming_webhooks"]
    static let botWebhooks = ["bot_webhooks"]
    static let botDeliveries = ["bot_deliveries"]
    static let contacts = ["contacts"]

    struct Case: Sendable, CustomTestStringConvertible {
        let route: APIRoute
        let tables: [String]
        let request: @Sendable (Fixture) async throws -> APIClient.Reply

        var testDescription: String { "\(self.route) without \(self.tables.joined(separator: ", "))" }
    }

    static let password = "correct horse"

    static let cases: [Case] = [
        Case(route: .register, tables: signIn) {
            try await $0.api.send(.POST, "/register", json: RegisterRequest(username: "cat", password: password))
        },
        Case(route: .login, tables: signIn) {
            try await $0.api.send(.POST, "/login", json: LoginRequest(username: "ann", password: password))
        },
        Case(route: .logout, tables: signIn) { try await $0.api.send(.POST, "/logout", token: $0.ann.token) },
        Case(route: .me, tables: signIn) { try await $0.api.get("/me", token: $0.ann.token) },
        Case(route: .updateMe, tables: signIn) {
            try await $0.api.send(.PATCH, "/me", json: ProfileUpdate(displayName: "Ann"), token: $0.ann.token)
        },
        Case(route: .changePassword, tables: signIn) {
            try await $0.api.send(
                .POST, "/me/password", json: PasswordChange(password: password, newPassword: "battery staple"),
                token: $0.ann.token)
        },
        Case(route: .users, tables: signIn) { try await $0.api.get("/users?query=b", token: $0.ann.token) },
        Case(route: .user, tables: signIn) { try await $0.api.get("/users/\($0.bob.user.id)", token: $0.ann.token) },
        Case(route: .rooms, tables: rooms) { try await $0.api.get("/rooms", token: $0.ann.token) },
        Case(route: .createRoom, tables: rooms) {
            try await $0.api.send(
                .POST, "/rooms", json: CreateRoomRequest(kind: "group", name: "Tea", members: ["bob"]),
                token: $0.ann.token)
        },
        Case(route: .publicRooms, tables: rooms) { try await $0.api.get("/rooms/public", token: $0.ann.token) },
        Case(route: .renameRoom, tables: rooms) {
            try await $0.api.send(
                .PATCH, "/rooms/\($0.group)", json: RenameRoomRequest(name: "Coffee"), token: $0.ann.token)
        },
        Case(route: .join, tables: rooms) {
            try await $0.api.send(.POST, "/rooms/\($0.channel)/join", token: $0.ann.token)
        },
        Case(route: .leave, tables: rooms) {
            try await $0.api.send(.POST, "/rooms/\($0.group)/leave", token: $0.ann.token)
        },
        Case(route: .invite, tables: rooms) {
            try await $0.api.send(
                .POST, "/rooms/\($0.channel)/invite", json: UsernameRequest(username: "ann"), token: $0.bob.token)
        },
        Case(route: .history, tables: rooms) {
            try await $0.api.get("/rooms/\($0.group)/messages", token: $0.ann.token)
        },
        Case(route: .postMessage, tables: rooms) {
            try await $0.api.send(
                .POST, "/rooms/\($0.group)/messages", json: PostMessageRequest(text: "hi", clientMsgID: "f1"),
                token: $0.ann.token)
        },
        Case(route: .reads, tables: rooms) { try await $0.api.get("/rooms/\($0.group)/reads", token: $0.ann.token) },
        Case(route: .members, tables: rooms) {
            try await $0.api.get("/rooms/\($0.group)/members", token: $0.ann.token)
        },
        Case(route: .directRoom, tables: rooms) {
            try await $0.api.send(.POST, "/dms", json: UsernameRequest(username: "bob"), token: $0.ann.token)
        },
        Case(route: .socket, tables: signIn) { try await $0.api.get("/ws?token=\($0.ann.token)") },
        // Signed in, but the rooms to follow cannot be read.
        Case(route: .socket, tables: rooms) { try await $0.api.get("/ws?token=\($0.ann.token)") },
        Case(route: .upload, tables: attachments) {
            try await $0.api.send(
                .POST, "/attachments?name=a.txt", bytes: Array("hi".utf8), contentType: "text/plain",
                token: $0.ann.token)
        },
        Case(route: .download, tables: attachments) {
            try await $0.api.get("/attachments/\($0.attachment)", token: $0.ann.token)
        },
        Case(route: .search, tables: rooms) { try await $0.api.get("/search?q=hello", token: $0.ann.token) },
        Case(route: .adminUsers, tables: signIn) { try await $0.api.send(.adminUsers, token: $0.ann.token) },
        Case(route: .adminDeactivate, tables: audit) {
            try await $0.api.send(.adminDeactivate, $0.bob.user.id.uuidString, token: $0.ann.token)
        },
        Case(route: .adminReactivate, tables: audit) {
            try await $0.api.send(.adminReactivate, $0.bob.user.id.uuidString, token: $0.ann.token)
        },
        Case(route: .adminGrant, tables: audit) {
            try await $0.api.send(.adminGrant, $0.bob.user.id.uuidString, token: $0.ann.token)
        },
        Case(route: .adminRevoke, tables: audit) {
            try await $0.api.send(.adminRevoke, $0.bob.user.id.uuidString, token: $0.ann.token)
        },
        Case(route: .adminAudit, tables: audit) { try await $0.api.send(.adminAudit, token: $0.ann.token) },
        Case(route: .adminPasswordReset, tables: audit) {
            try await $0.api.send(.adminPasswordReset, $0.bob.user.id.uuidString, token: $0.ann.token)
        },
        Case(route: .passwordReset, tables: resets) {
            try await $0.api.send(
                .passwordReset, json: PasswordResetRequest(code: "unknown", newPassword: "battery staple"))
        },
        Case(route: .createInvite, tables: audit) {
            try await $0.api.send(.createInvite, json: InvitationRequest(), token: $0.ann.token)
        },
        Case(route: .adminRooms, tables: rooms) { try await $0.api.send(.adminRooms, token: $0.ann.token) },
        Case(route: .adminDeleteMessage, tables: rooms) {
            try await $0.api.send(.adminDeleteMessage, $0.group, "1", token: $0.ann.token)
        },
        Case(route: .deleteMe, tables: signIn) {
            try await $0.api.send(.deleteMe, json: AccountDeletionRequest(password: password), token: $0.bob.token)
        },
        Case(route: .adminDeleteUser, tables: audit) {
            try await $0.api.send(.adminDeleteUser, $0.bob.user.id.uuidString, token: $0.ann.token)
        },
        Case(route: .export, tables: rooms) { try await $0.api.send(.export, token: $0.ann.token) },
        Case(route: .blocks, tables: blocks) { try await $0.api.send(.blocks, token: $0.ann.token) },
        Case(route: .block, tables: blocks) {
            try await $0.api.send(.block, $0.bob.user.id.uuidString, token: $0.ann.token)
        },
        Case(route: .unblock, tables: blocks) {
            try await $0.api.send(.unblock, $0.bob.user.id.uuidString, token: $0.ann.token)
        },
        Case(route: .invites, tables: invitations) { try await $0.api.send(.invites, token: $0.ann.token) },
        Case(route: .setRole, tables: rooms) {
            try await $0.api.send(
                .setRole, $0.group, $0.bob.user.id.uuidString, json: RoleChange(role: "moderator"), token: $0.ann.token)
        },
        Case(route: .removeMember, tables: rooms) {
            try await $0.api.send(.removeMember, $0.group, $0.bob.user.id.uuidString, token: $0.ann.token)
        },
        Case(route: .deleteMessage, tables: rooms) {
            try await $0.api.send(.deleteMessage, $0.group, "1", token: $0.ann.token)
        },
        Case(route: .adminUser, tables: signIn) {
            try await $0.api.send(.adminUser, $0.bob.user.id.uuidString, token: $0.ann.token)
        },
        Case(route: .subscribePush, tables: push) {
            try await $0.api.send(
                .subscribePush,
                json: PushSubscriptionRequest(
                    endpoint: "https://push.example.net/1",
                    keys: .init(
                        p256dh:
                            "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4",
                        auth: "BTBZMqHH6r4Tts7J_aSIgg")), token: $0.ann.token)
        },
        Case(route: .unsubscribePush, tables: push) {
            try await $0.api.send(
                .unsubscribePush, json: PushUnsubscribeRequest(endpoint: "https://push.example.net/1"),
                token: $0.ann.token)
        },
        Case(route: .mentions, tables: mentions) { try await $0.api.send(.mentions, token: $0.ann.token) },
        Case(route: .notifications, tables: rooms) {
            try await $0.api.send(
                .notifications, $0.group, json: NotificationLevelRequest(level: "none"), token: $0.ann.token)
        },
        Case(route: .report, tables: reports) {
            try await $0.api.send(.report, $0.group, "1", json: ReportRequest(reason: "spam"), token: $0.ann.token)
        },
        Case(route: .roomReports, tables: reports) {
            try await $0.api.send(.roomReports, $0.group, token: $0.ann.token)
        },
        Case(route: .adminReports, tables: reports) { try await $0.api.send(.adminReports, token: $0.ann.token) },
        Case(route: .resolveReport, tables: reports) {
            try await $0.api.send(
                .resolveReport, "1", json: ResolveReportRequest(action: "dismiss"), token: $0.ann.token)
        },
        Case(route: .adminDeleteRoom, tables: rooms) {
            try await $0.api.send(.adminDeleteRoom, $0.channel, token: $0.ann.token)
        },
        Case(route: .bans, tables: restrictions) { try await $0.api.send(.bans, $0.group, token: $0.ann.token) },
        Case(route: .ban, tables: restrictions) {
            try await $0.api.send(.ban, $0.group, $0.bob.user.id.uuidString, token: $0.ann.token)
        },
        Case(route: .unban, tables: restrictions) {
            try await $0.api.send(.unban, $0.group, $0.bob.user.id.uuidString, token: $0.ann.token)
        },
        Case(route: .mute, tables: restrictions) {
            try await $0.api.send(.mute, $0.group, $0.bob.user.id.uuidString, token: $0.ann.token)
        },
        Case(route: .unmute, tables: restrictions) {
            try await $0.api.send(.unmute, $0.group, $0.bob.user.id.uuidString, token: $0.ann.token)
        },
        Case(route: .deleteInvite, tables: invitations) {
            try await $0.api.send(.deleteInvite, "some-code", token: $0.ann.token)
        },
        Case(route: .createBot, tables: signIn) {
            try await $0.api.send(.createBot, json: BotCreateRequest(username: "ci-bot"), token: $0.ann.token)
        },
        Case(route: .bots, tables: signIn) { try await $0.api.send(.bots, token: $0.ann.token) },
        Case(route: .botToken, tables: signIn) {
            try await $0.api.send(.botToken, UUID().uuidString, token: $0.ann.token)
        },
        Case(route: .deleteBot, tables: signIn) {
            try await $0.api.send(.deleteBot, UUID().uuidString, token: $0.ann.token)
        },
        Case(route: .pin, tables: rooms) { try await $0.api.send(.pin, $0.group, token: $0.ann.token) },
        Case(route: .unpin, tables: rooms) { try await $0.api.send(.unpin, $0.group, token: $0.ann.token) },
        Case(route: .markUnread, tables: rooms) { try await $0.api.send(.markUnread, $0.group, token: $0.ann.token) },
        Case(route: .clearUnread, tables: rooms) {
            try await $0.api.send(.clearUnread, $0.group, token: $0.ann.token)
        },
        Case(route: .draft, tables: rooms) {
            try await $0.api.send(.draft, $0.group, json: DraftRequest(text: "later"), token: $0.ann.token)
        },
        Case(route: .updateBot, tables: botWebhooks) {
            try await $0.api.send(
                .updateBot, $0.bot.uuidString, json: BotWebhookRequest(webhookURL: "https://hooks.example.org/x"),
                token: $0.ann.token)
        },
        Case(route: .botDeliveries, tables: botDeliveries) {
            try await $0.api.send(.botDeliveries, $0.bot.uuidString, token: $0.ann.token)
        },
        Case(route: .createWebhook, tables: webhooks) {
            try await $0.api.send(.createWebhook, $0.group, json: WebhookCreateRequest(name: "CI"), token: $0.ann.token)
        },
        Case(route: .webhooks, tables: webhooks) { try await $0.api.send(.webhooks, $0.group, token: $0.ann.token) },
        // A token that parses (bot, room `lobby`, a far expiry), so the bot's webhook is read to check it.
        Case(route: .botReply, tables: botWebhooks) {
            try await $0.api.send(
                .botReply, "\(UUID()).bG9iYnk.99999999999.00", json: BotReplyRequest(text: "late"), token: nil)
        },
        Case(route: .contacts, tables: contacts) { try await $0.api.send(.contacts, token: $0.ann.token) },
        Case(route: .addContact, tables: contacts) {
            try await $0.api.send(.addContact, json: UsernameRequest(username: "bob"), token: $0.ann.token)
        },
        Case(route: .removeContact, tables: contacts) {
            try await $0.api.send(.removeContact, UUID().uuidString, token: $0.ann.token)
        },
        Case(route: .forward, tables: rooms) {
            try await $0.api.send(
                .forward, $0.group, json: ForwardRequest(room: $0.group, seq: 1, clientMsgID: "f1"), token: $0.ann.token
            )
        },
        Case(route: .removePreview, tables: rooms) {
            try await $0.api.send(.removePreview, $0.group, "1", token: $0.ann.token)
        },
        Case(route: .pinnedMessages, tables: rooms) {
            try await $0.api.send(.pinnedMessages, $0.group, token: $0.ann.token)
        },
        Case(route: .pinMessage, tables: rooms) {
            try await $0.api.send(.pinMessage, $0.group, "1", token: $0.ann.token)
        },
        Case(route: .unpinMessage, tables: rooms) {
            try await $0.api.send(.unpinMessage, $0.group, "1", token: $0.ann.token)
        },
        Case(route: .setMyAvatar, tables: attachments) {
            try await $0.api.send(
                .PUT, "/me/avatar", bytes: pngBytes(width: 8, height: 8), contentType: "image/png", token: $0.ann.token)
        },
        Case(route: .removeMyAvatar, tables: signIn) { try await $0.api.send(.removeMyAvatar, token: $0.ann.token) },
        Case(route: .setRoomAvatar, tables: rooms) {
            try await $0.api.send(
                .PUT, "/rooms/\($0.group)/avatar", bytes: pngBytes(width: 8, height: 8), contentType: "image/png",
                token: $0.ann.token)
        },
        Case(route: .removeRoomAvatar, tables: rooms) {
            try await $0.api.send(.removeRoomAvatar, $0.group, token: $0.ann.token)
        },
        // Whether the picture is worn is read from the accounts and rooms.
        Case(route: .avatar, tables: signIn) { try await $0.api.send(.avatar, $0.attachment.uuidString) },
        Case(route: .deleteWebhook, tables: webhooks) {
            try await $0.api.send(.deleteWebhook, $0.group, UUID().uuidString, token: $0.ann.token)
        },
    ]

    @Test("every route but the configuration's and the push key's has a case: they read no store")
    func everyRouteIsCovered() {
        let covered = Set(Self.cases.map(\.route))
        #expect(covered == Set(APIRoute.all).subtracting([.config, .pushKey]))
    }

    @Test(
        "the route answers 503 with Retry-After while its tables are gone, and works again once they are back",
        arguments: cases)
    func answersUnavailable(_ faultCase: Case) async throws {
        try await withTestServer { server in
            let fixture = try await Self.fixture(server)
            try await server.breakTables(faultCase.tables)
            let broken = try await faultCase.request(fixture)
            #expect(broken.status == 503, "\(String(decoding: broken.body, as: UTF8.self))")
            #expect(broken.headers.first(name: "Retry-After") == "1")
            #expect(try broken.decode(APIErrorBody.self).code == .unavailable)
            try await server.repairTables(faultCase.tables)
            let repaired = try await faultCase.request(fixture)
            #expect(repaired.status < 500, "\(String(decoding: repaired.body, as: UTF8.self))")
        }
    }

    static func fixture(_ server: TestServer) async throws -> Fixture {
        let api = APIClient(host: server.host, port: server.httpPort)
        let ann = try await api.send(.POST, "/register", json: RegisterRequest(username: "ann", password: password))
            .decode(AuthSession.self)
        _ = try await server.admin("grant", "ann")
        let bob = try await api.send(.POST, "/register", json: RegisterRequest(username: "bob", password: password))
            .decode(AuthSession.self)
        let group = try await api.send(
            .POST, "/rooms", json: CreateRoomRequest(kind: "group", name: "Tea", members: ["bob"]), token: ann.token
        ).decode(RoomSummary.self)
        let channel = try await api.send(
            .POST, "/rooms", json: CreateRoomRequest(kind: "channel", name: "News"), token: bob.token
        ).decode(RoomSummary.self)
        // Message 1 of the group, to report and to delete.
        let socket = try await server.modernClient(ann)
        _ = try await socket.acked(.send(SendRequest(room: group.id, clientMsgID: "f1", text: "hello")))
        await socket.close()
        let upload = try await api.send(
            .POST, "/attachments?name=a.txt", bytes: Array("hello".utf8), contentType: "text/plain", token: ann.token
        ).decode(AttachmentPayload.self)
        let bot = try await api.send(.createBot, json: BotCreateRequest(username: "fault-bot"), token: ann.token)
            .decode(BotTokenPayload.self)
        return Fixture(
            api: api, ann: ann, bob: bob, group: group.id, channel: channel.id, attachment: upload.id, bot: bot.id)
    }
}
