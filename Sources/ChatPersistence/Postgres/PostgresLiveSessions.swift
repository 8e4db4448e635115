import ChatCore
import ChatUseCases
import Foundation
import Logging
import PostgresNIO

/// The open connections of every node (``LiveSessions``): each change is applied to this node's connections
/// (the realtime layer's session registry) and sent to the other nodes with `NOTIFY swiftchat_sessions`, whose followers apply it to
/// theirs. So being added to a room, leaving it, or having a token revoked reaches every device wherever it is
/// connected. Like receipts, a change sent while a node's listener reconnects is lost to that node; its
/// connections see the room at their next resume.
public final class PostgresLiveSessions: LiveSessions {
    public static let channel = "swiftchat_sessions"
    /// Users per notification: a payload stops at 8,000 bytes, and a user id takes 39 in JSON.
    static let usersPerNotification = 150

    private let local: any LiveSessions
    private let origin = UUID()
    private let sender: NotificationSender

    /// `background` runs the sending task; the storage closes it before the client stops.
    public init(local: any LiveSessions, client: PostgresClient, background: BackgroundTasks, logger: Logger) {
        self.local = local
        self.sender = NotificationSender(
            channel: Self.channel, client: client, background: background,
            losing: "a membership change or revoked token", logger: logger)
    }

    struct Payload: Codable {
        enum Kind: String, Codable {
            case joined, left, closeAccount, closeToken, deactivated
        }

        var origin: UUID
        var kind: Kind
        var users: [UUID] = []
        var room: String?
        var tokenHash: String?
    }

    public func joined(_ users: [UUID], room: RoomID) async {
        await self.local.joined(users, room: room)
        for start in stride(from: 0, to: users.count, by: Self.usersPerNotification) {
            let chunk = Array(users[start..<min(start + Self.usersPerNotification, users.count)])
            self.publish(Payload(origin: self.origin, kind: .joined, users: chunk, room: room.rawValue))
        }
    }

    public func left(_ user: UUID, room: RoomID) async {
        await self.local.left(user, room: room)
        self.publish(Payload(origin: self.origin, kind: .left, users: [user], room: room.rawValue))
    }

    public func closeAll(account: UUID) {
        self.local.closeAll(account: account)
        self.publish(Payload(origin: self.origin, kind: .closeAccount, users: [account]))
    }

    public func closeAll(deactivated account: UUID) {
        self.local.closeAll(deactivated: account)
        self.publish(Payload(origin: self.origin, kind: .deactivated, users: [account]))
    }

    public func closeAll(tokenHash: String) {
        self.local.closeAll(tokenHash: tokenHash)
        self.publish(Payload(origin: self.origin, kind: .closeToken, tokenHash: tokenHash))
    }

    /// Applies a change another node made to this node's connections; this node's own and what does not decode are
    /// ignored.
    func apply(_ text: String) async {
        guard let payload = try? JSONDecoder().decode(Payload.self, from: Data(text.utf8)),
            payload.origin != self.origin
        else { return }
        switch payload.kind {
        case .joined:
            if let room = payload.room { await self.local.joined(payload.users, room: RoomID(room)) }
        case .left:
            if let room = payload.room, let user = payload.users.first {
                await self.local.left(user, room: RoomID(room))
            }
        case .closeAccount:
            if let account = payload.users.first { self.local.closeAll(account: account) }
        case .closeToken:
            if let hash = payload.tokenHash { self.local.closeAll(tokenHash: hash) }
        case .deactivated:
            if let account = payload.users.first { self.local.closeAll(deactivated: account) }
        }
    }

    /// The notification that closes an account's sockets on every node, for a process that is no node (the
    /// `admin` command line): `SELECT pg_notify(channel, this)`.
    public static func deactivationNotice(_ account: UUID) -> String {
        let payload = Payload(origin: UUID(), kind: .deactivated, users: [account])
        return String(decoding: (try? JSONEncoder().encode(payload)) ?? Data(), as: UTF8.self)
    }

    private func publish(_ payload: Payload) {
        self.sender.send(payload)
    }
}
