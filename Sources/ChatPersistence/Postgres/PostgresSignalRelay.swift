import ChatCore
import ChatUseCases
import Foundation
import Logging
import PostgresNIO

/// Relays receipts, typing notices and the tutorial lobby's join and leave announcements to the other nodes with
/// `NOTIFY swiftchat_signals`, a small JSON payload that names this node so that it skips its own. Sent in order and
/// fire and forget, like the signals themselves (``NotificationSender``).
public final class PostgresSignalRelay: RoomSignalRelay {
    static let channel = "swiftchat_signals"

    /// This process, as the payloads name it.
    let origin = UUID()
    private let sender: NotificationSender

    /// `background` runs the sending task; the storage closes it before the client stops.
    public init(client: PostgresClient, background: BackgroundTasks, logger: Logger) {
        self.sender = NotificationSender(
            channel: Self.channel, client: client, background: background,
            losing: "a receipt, typing notice or lobby announcement", logger: logger)
    }

    /// What travels: the signal with its sender's node.
    struct Payload: Codable {
        var origin: UUID
        var room: String
        var user: UUID
        /// `receipt`'s position; `nil` for a typing notice.
        var seq: Int64?
        /// A typing user's name, or the name a tutorial client joined or left with.
        var name: String?
        /// `joined` or `left` for an announcement (whose `user` is the announcement's id); `nil` otherwise.
        var announcement: String?
        /// When the announcement was made, in milliseconds since 1970.
        var date: Int64?
    }

    public func publish(_ signal: RoomSignal) {
        let payload: Payload
        switch signal {
        case .receipt(let room, let user, let seq):
            payload = Payload(origin: self.origin, room: room.rawValue, user: user, seq: seq)
        case .typing(let room, let user):
            payload = Payload(origin: self.origin, room: room.rawValue, user: user.id, name: user.name)
        case .announcement(let room, let change):
            payload = Payload(
                origin: self.origin, room: room.rawValue, user: change.id, name: change.name,
                announcement: change.kind == .joined ? "joined" : "left",
                date: change.date.milliseconds)
        }
        self.sender.send(payload)
    }

    /// The signal in a notification from another node; `nil` for this node's own and for what does not decode.
    func signal(in payload: String) -> RoomSignal? {
        guard let decoded = try? JSONDecoder().decode(Payload.self, from: Data(payload.utf8)),
            decoded.origin != self.origin
        else { return nil }
        let room = RoomID(decoded.room)
        if let announcement = decoded.announcement {
            let date = decoded.date.map { Date(timeIntervalSince1970: Double($0) / 1000) } ?? Date()
            return .announcement(
                room: room,
                change: PresenceChange(
                    announcement == "joined" ? .joined : .left, name: decoded.name ?? "", id: decoded.user, date: date))
        }
        if let seq = decoded.seq { return .receipt(room: room, user: decoded.user, seq: seq) }
        return .typing(room: room, user: Sender(name: decoded.name ?? "", id: decoded.user))
    }
}
