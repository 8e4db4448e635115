import Foundation

/// One endpoint of the modern HTTP API (PROTOCOL.md §6, §7, §9): a method and a path under ``prefix``, whose
/// segments starting with `:` are parameters. The server registers exactly these, and `ChatClient` calls them, so
/// each path is spelt once.
public struct APIRoute: Sendable, Hashable, CustomStringConvertible {
    public enum Method: String, Sendable {
        case GET, POST, PUT, PATCH, DELETE
    }

    /// Where every route lives.
    public static let prefix = ["api", "v1"]

    public let method: Method
    /// The segments after ``prefix``; `:room` is a parameter named `room`.
    public let segments: [String]

    init(_ method: Method, _ path: String) {
        self.method = method
        self.segments = path.split(separator: "/").map(String.init)
    }

    /// `GET /api/v1/rooms/:room/messages`.
    public var description: String {
        "\(self.method.rawValue) /\((Self.prefix + self.segments).joined(separator: "/"))"
    }

    /// The path from the root, with `arguments` in place of the parameters in order and `query` appended (items
    /// whose value is `nil` left out), every part percent-escaped: `/api/v1/rooms/abc/messages?limit=50`.
    public func path(_ arguments: String..., query: [(String, String?)] = []) -> String {
        self.path(arguments: arguments, query: query)
    }

    /// ``path(_:query:)`` with the arguments in an array.
    public func path(arguments: [String], query: [(String, String?)] = []) -> String {
        var remaining = arguments[...]
        let parts = self.segments.map { segment in
            guard segment.hasPrefix(":") else { return segment }
            guard let argument = remaining.popFirst() else { preconditionFailure("\(self) needs \(segment)") }
            return Self.escape(argument)
        }
        precondition(remaining.isEmpty, "\(self) takes \(arguments.count - remaining.count) arguments")
        var path = "/" + (Self.prefix + parts).joined(separator: "/")
        let items = query.compactMap { name, value in value.map { "\(name)=\(Self.escape($0))" } }
        if !items.isEmpty { path += "?" + items.joined(separator: "&") }
        return path
    }

    /// Percent-escapes a path segment or a query value: everything but letters, digits and `-._~`.
    public static func escape(_ text: String) -> String {
        var allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}

extension APIRoute {
    // Accounts (§6)
    public static let register = APIRoute(.POST, "register")
    public static let login = APIRoute(.POST, "login")
    public static let logout = APIRoute(.POST, "logout")
    public static let me = APIRoute(.GET, "me")
    public static let updateMe = APIRoute(.PATCH, "me")
    public static let changePassword = APIRoute(.POST, "me/password")
    public static let passwordReset = APIRoute(.POST, "password-reset")
    public static let export = APIRoute(.GET, "me/export")
    public static let deleteMe = APIRoute(.DELETE, "me")
    public static let blocks = APIRoute(.GET, "me/blocks")
    public static let block = APIRoute(.PUT, "me/blocks/:id")
    public static let unblock = APIRoute(.DELETE, "me/blocks/:id")
    public static let users = APIRoute(.GET, "users")
    public static let user = APIRoute(.GET, "users/:id")

    // Rooms (§7)
    public static let rooms = APIRoute(.GET, "rooms")
    public static let createRoom = APIRoute(.POST, "rooms")
    public static let publicRooms = APIRoute(.GET, "rooms/public")
    public static let renameRoom = APIRoute(.PATCH, "rooms/:room")
    public static let join = APIRoute(.POST, "rooms/:room/join")
    public static let leave = APIRoute(.POST, "rooms/:room/leave")
    public static let invite = APIRoute(.POST, "rooms/:room/invite")
    public static let history = APIRoute(.GET, "rooms/:room/messages")
    public static let postMessage = APIRoute(.POST, "rooms/:room/messages")
    public static let reads = APIRoute(.GET, "rooms/:room/reads")
    public static let members = APIRoute(.GET, "rooms/:room/members")
    public static let directRoom = APIRoute(.POST, "dms")
    public static let setRole = APIRoute(.PUT, "rooms/:room/members/:id/role")
    public static let removeMember = APIRoute(.DELETE, "rooms/:room/members/:id")
    public static let bans = APIRoute(.GET, "rooms/:room/bans")
    public static let ban = APIRoute(.PUT, "rooms/:room/bans/:id")
    public static let unban = APIRoute(.DELETE, "rooms/:room/bans/:id")
    public static let mute = APIRoute(.PUT, "rooms/:room/mutes/:id")
    public static let unmute = APIRoute(.DELETE, "rooms/:room/mutes/:id")
    public static let deleteMessage = APIRoute(.DELETE, "rooms/:room/messages/:seq")
    public static let report = APIRoute(.POST, "rooms/:room/messages/:seq/report")
    public static let notifications = APIRoute(.PUT, "rooms/:room/notifications")
    public static let roomReports = APIRoute(.GET, "rooms/:room/reports")
    public static let resolveReport = APIRoute(.POST, "reports/:id/resolve")

    // Administration (§10)
    public static let adminUsers = APIRoute(.GET, "admin/users")
    public static let adminUser = APIRoute(.GET, "admin/users/:id")
    public static let adminDeactivate = APIRoute(.POST, "admin/users/:id/deactivate")
    public static let adminReactivate = APIRoute(.POST, "admin/users/:id/reactivate")
    public static let adminGrant = APIRoute(.POST, "admin/users/:id/grant")
    public static let adminRevoke = APIRoute(.POST, "admin/users/:id/revoke")
    public static let adminAudit = APIRoute(.GET, "admin/audit")
    public static let adminPasswordReset = APIRoute(.POST, "admin/users/:id/password-reset")
    public static let adminRooms = APIRoute(.GET, "admin/rooms")
    public static let adminDeleteUser = APIRoute(.DELETE, "admin/users/:id")
    public static let adminDeleteMessage = APIRoute(.DELETE, "admin/rooms/:room/messages/:seq")
    public static let adminDeleteRoom = APIRoute(.DELETE, "admin/rooms/:room")
    public static let adminReports = APIRoute(.GET, "admin/reports")
    public static let createInvite = APIRoute(.POST, "invites")
    public static let invites = APIRoute(.GET, "invites")
    public static let deleteInvite = APIRoute(.DELETE, "invites/:code")

    // The socket (§8)
    public static let socket = APIRoute(.GET, "ws")

    // Rich chat (§9)
    public static let upload = APIRoute(.POST, "attachments")
    public static let download = APIRoute(.GET, "attachments/:id")
    public static let search = APIRoute(.GET, "search")
    public static let mentions = APIRoute(.GET, "mentions")
    public static let pushKey = APIRoute(.GET, "push/key")
    public static let subscribePush = APIRoute(.POST, "push/subscriptions")
    public static let unsubscribePush = APIRoute(.DELETE, "push/subscriptions")
    public static let config = APIRoute(.GET, "config")
    public static let createBot = APIRoute(.POST, "bots")
    public static let bots = APIRoute(.GET, "bots")
    public static let botToken = APIRoute(.POST, "bots/:id/token")
    public static let deleteBot = APIRoute(.DELETE, "bots/:id")
    public static let pin = APIRoute(.PUT, "rooms/:room/pin")
    public static let unpin = APIRoute(.DELETE, "rooms/:room/pin")
    public static let draft = APIRoute(.PUT, "rooms/:room/draft")
    public static let updateBot = APIRoute(.PATCH, "bots/:id")
    public static let botDeliveries = APIRoute(.GET, "bots/:id/deliveries")
    public static let createWebhook = APIRoute(.POST, "rooms/:room/webhooks")
    public static let webhooks = APIRoute(.GET, "rooms/:room/webhooks")
    public static let deleteWebhook = APIRoute(.DELETE, "rooms/:room/webhooks/:id")
    public static let removePreview = APIRoute(.DELETE, "rooms/:room/messages/:seq/preview")
    public static let botReply = APIRoute(.POST, "bots/replies/:token")
    public static let forward = APIRoute(.POST, "rooms/:room/forward")
    public static let markUnread = APIRoute(.PUT, "rooms/:room/unread")
    public static let clearUnread = APIRoute(.DELETE, "rooms/:room/unread")
    public static let contacts = APIRoute(.GET, "me/contacts")
    public static let addContact = APIRoute(.POST, "me/contacts")
    public static let removeContact = APIRoute(.DELETE, "me/contacts/:id")
    public static let setMyAvatar = APIRoute(.PUT, "me/avatar")
    public static let removeMyAvatar = APIRoute(.DELETE, "me/avatar")
    public static let setRoomAvatar = APIRoute(.PUT, "rooms/:room/avatar")
    public static let removeRoomAvatar = APIRoute(.DELETE, "rooms/:room/avatar")
    public static let avatar = APIRoute(.GET, "avatars/:id")
    public static let pinnedMessages = APIRoute(.GET, "rooms/:room/pins")
    public static let pinMessage = APIRoute(.PUT, "rooms/:room/messages/:seq/pin")
    public static let unpinMessage = APIRoute(.DELETE, "rooms/:room/messages/:seq/pin")

    /// Every route, for the server's registration check and the docs test.
    public static let all: [APIRoute] = [
        .register, .login, .logout, .me, .updateMe, .changePassword, .passwordReset, .export, .deleteMe, .blocks,
        .block, .unblock,
        .users, .user,
        .rooms, .createRoom, .publicRooms, .renameRoom, .join, .leave, .invite, .history, .postMessage, .reads,
        .members, .directRoom,
        .setRole, .removeMember, .bans, .ban, .unban, .mute, .unmute, .deleteMessage, .report, .roomReports,
        .notifications,
        .resolveReport,
        .adminUsers, .adminUser, .adminDeactivate, .adminReactivate, .adminGrant, .adminRevoke, .adminAudit,
        .adminPasswordReset,
        .adminRooms, .adminDeleteMessage, .adminDeleteUser, .adminDeleteRoom, .adminReports,
        .createInvite, .invites, .deleteInvite,
        .socket, .upload, .download, .search, .mentions, .pushKey, .subscribePush, .unsubscribePush, .config,
        .createBot, .bots, .botToken, .deleteBot, .updateBot, .botDeliveries, .pin, .unpin, .draft, .createWebhook,
        .webhooks, .deleteWebhook, .removePreview, .botReply, .forward, .contacts,
        .addContact, .removeContact, .markUnread, .clearUnread, .setMyAvatar, .removeMyAvatar, .setRoomAvatar,
        .removeRoomAvatar, .avatar, .pinnedMessages, .pinMessage, .unpinMessage,
    ]
}
