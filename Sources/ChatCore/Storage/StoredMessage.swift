import Foundation

/// Names a room. The lobby shared by the legacy protocols is ``RoomID/lobby``.
public struct RoomID: Hashable, Sendable, Codable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let rawValue: String

    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    public var description: String { self.rawValue }

    /// The room every legacy client talks in.
    public static let lobby: RoomID = "lobby"
}

/// Who sent a message, as every transport can show it.
public struct Sender: Hashable, Sendable {
    public var name: String
    public var id: UUID

    public init(name: String, id: UUID) {
        self.name = name
        self.id = id
    }
}

/// A message as a client submitted it, before the room has sequenced and committed it.
public struct MessageDraft: Sendable {
    public var sender: Sender
    public var text: String
    /// The sender's own id for this message (modern clients): a retry with the same id stores nothing new.
    public var clientMsgID: String?

    public init(sender: Sender, text: String, clientMsgID: String? = nil) {
        self.sender = sender
        self.text = text
        self.clientMsgID = clientMsgID
    }
}

/// A committed message: durable in the store, with its place in the room's order.
public struct StoredMessage: Hashable, Sendable {
    public var room: RoomID
    /// Position in the room, starting at 1, gap-free and increasing.
    public var seq: Int64
    public var id: UUID
    public var sender: Sender
    public var text: String
    public var date: Date
    public var clientMsgID: String?

    public init(room: RoomID, seq: Int64, id: UUID, sender: Sender, text: String, date: Date, clientMsgID: String? = nil) {
        self.room = room
        self.seq = seq
        self.id = id
        self.sender = sender
        self.text = text
        self.date = date
        self.clientMsgID = clientMsgID
    }
}
