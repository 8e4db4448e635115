import Foundation

/// Something a room tells its members.
public enum RoomEvent: Sendable {
    /// A committed message.
    case message(StoredMessage)
    /// Someone joined or left. Presence is announced live and never stored: it has no sequence number.
    case presence(PresenceChange)
    /// Sent to one resuming connection after its replay: everything up to `latestSeq` has been sent (`complete`),
    /// or the gap was too large and the client should page history up to `latestSeq` instead.
    case resumed(room: RoomID, latestSeq: Int64, complete: Bool)
    /// A member has read up to `seq`. Sent live to every member (the reader's other devices too), never stored
    /// as an event: the membership keeps the last-read seq.
    case receipt(room: RoomID, user: UUID, seq: Int64)
    /// A member is typing. Sent live to the other members' connections, never stored.
    case typing(room: RoomID, user: Sender)
}

/// A join or leave announcement.
public struct PresenceChange: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        case joined
        case left
    }

    public var kind: Kind
    public var name: String
    /// Identifies the announcement itself, for transports that show it as a message.
    public var id: UUID
    public var date: Date

    public init(_ kind: Kind, name: String, id: UUID = UUID(), date: Date = Date()) {
        self.kind = kind
        self.name = name
        self.id = id
        self.date = date
    }
}
