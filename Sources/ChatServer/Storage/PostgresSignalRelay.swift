import ChatCore
import Foundation
import Logging
import PostgresNIO

/// Relays receipts and typing notices to the other nodes with `NOTIFY swiftchat_signals`, a small JSON payload
/// that names this node so that it skips its own. Fire and forget, like the signals themselves: one that cannot be
/// sent (the database is away) is dropped, and the log says so.
final class PostgresSignalRelay: RoomSignalRelay {
    static let channel = "swiftchat_signals"

    /// This process, as the payloads name it.
    let origin = UUID()
    private let client: PostgresClient
    /// Where notifications are sent from; closed by the storage before the client stops.
    private let background: BackgroundTasks
    private let logger: Logger

    init(client: PostgresClient, background: BackgroundTasks, logger: Logger) {
        self.background = background
        self.client = client
        self.logger = logger
    }

    /// What travels: the signal with its sender's node.
    struct Payload: Codable {
        var origin: UUID
        var room: String
        var user: UUID
        /// `receipt`'s position; `nil` for a typing notice.
        var seq: Int64?
        /// A typing user's name (and tutorial protocol, never set today: only accounts type).
        var name: String?
    }

    func publish(_ signal: RoomSignal) {
        let payload: Payload
        switch signal {
        case .receipt(let room, let user, let seq):
            payload = Payload(origin: self.origin, room: room.rawValue, user: user, seq: seq)
        case .typing(let room, let user):
            payload = Payload(origin: self.origin, room: room.rawValue, user: user.id, name: user.name)
        }
        self.client.notifyInBackground(
            Self.channel, payload, in: self.background, logger: self.logger, losing: "a receipt or typing notice")
    }

    /// The signal in a notification from another node; `nil` for this node's own and for what does not decode.
    func signal(in payload: String) -> RoomSignal? {
        guard let decoded = try? JSONDecoder().decode(Payload.self, from: Data(payload.utf8)),
            decoded.origin != self.origin
        else { return nil }
        let room = RoomID(decoded.room)
        if let seq = decoded.seq { return .receipt(room: room, user: decoded.user, seq: seq) }
        return .typing(room: room, user: Sender(name: decoded.name ?? "", id: decoded.user))
    }
}
