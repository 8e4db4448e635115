import Foundation

/// `{"type":"hello"}`: the first frame on a new connection.
public struct HelloFrame: Codable, Sendable, Equatable {
    public var type = ServerMessage.Kind.hello
    public var user: UserProfile
    /// The rooms this connection can resume.
    public var rooms: [String]

    public init(user: UserProfile, rooms: [String]) {
        self.user = user
        self.rooms = rooms
    }
}

/// `{"type":"ack"}`: a sent message is durable.
public struct AckFrame: Codable, Sendable, Equatable {
    public var type = ServerMessage.Kind.ack
    public var clientMsgID: String
    public var room: String
    public var seq: Int64
    public var id: UUID
    public var date: Int64

    public init(clientMsgID: String, room: String, seq: Int64, id: UUID, date: Int64) {
        self.clientMsgID = clientMsgID
        self.room = room
        self.seq = seq
        self.id = id
        self.date = date
    }
}

/// `{"type":"message"}`: a committed event in one of my rooms (a message, or an edit, delete or reaction of one).
@dynamicMemberLookup
public struct MessageFrame: Codable, Sendable, Equatable {
    public var type = ServerMessage.Kind.message
    public var event: MessagePayload
    public var clientMsgID: String?

    public init(_ event: MessagePayload, clientMsgID: String?) {
        self.event = event
        self.clientMsgID = clientMsgID
    }

    /// The event's fields, read as the frame's own (`frame.seq`, `frame.text`).
    public subscript<Value>(dynamicMember keyPath: KeyPath<MessagePayload, Value>) -> Value {
        self.event[keyPath: keyPath]
    }

    private enum CodingKeys: String, CodingKey {
        case type, clientMsgID
    }

    /// The event's fields sit beside `type` and `clientMsgID` in one flat object.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.type = try container.decode(ServerMessage.Kind.self, forKey: .type)
        self.clientMsgID = try container.decodeIfPresent(String.self, forKey: .clientMsgID)
        self.event = try MessagePayload(from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        try self.event.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(self.type, forKey: .type)
        try container.encodeIfPresent(self.clientMsgID, forKey: .clientMsgID)
    }
}

/// `{"type":"resumed"}`: a room's replay is over; live messages follow.
public struct ResumedFrame: Codable, Sendable, Equatable {
    public var type = ServerMessage.Kind.resumed
    public var room: String
    public var latestSeq: Int64
    /// `false` when the gap was too large to replay: page history up to `latestSeq` instead.
    public var complete: Bool

    public init(room: String, latestSeq: Int64, complete: Bool) {
        self.room = room
        self.latestSeq = latestSeq
        self.complete = complete
    }
}

/// `{"type":"history"}`: the answer to a history request.
public struct HistoryFrame: Codable, Sendable, Equatable {
    public var type = ServerMessage.Kind.history
    public var room: String
    public var messages: [MessagePayload]
    public var hasMore: Bool
    public var ref: String?

    public init(room: String, messages: [MessagePayload], hasMore: Bool, ref: String?) {
        self.room = room
        self.messages = messages
        self.hasMore = hasMore
        self.ref = ref
    }
}

/// `{"type":"error"}`: what went wrong with one frame; the connection stays open.
public struct ErrorFrame: Codable, Sendable, Equatable {
    public var type = ServerMessage.Kind.error
    public var code: ErrorCode
    public var message: String
    /// The `clientMsgID` or `ref` of the frame it answers.
    public var ref: String?
    /// Why, when the code alone does not say: `muted` for a `forbidden` send of a muted member.
    public var reason: String?

    public init(code: ErrorCode, message: String, ref: String?, reason: String? = nil) {
        self.code = code
        self.message = message
        self.ref = ref
        self.reason = reason
    }
}

/// `{"type":"receipt"}`: a member (possibly you, on another device) has read a room up to `seq`.
public struct ReceiptFrame: Codable, Sendable, Equatable {
    public var type = ServerMessage.Kind.receipt
    public var room: String
    public var user: UUID
    public var seq: Int64

    public init(room: String, user: UUID, seq: Int64) {
        self.room = room
        self.user = user
        self.seq = seq
    }
}
