import Foundation

/// Every frame a client sends on `/api/v1/ws` (PROTOCOL.md §8, §9), one case per `type`, each with exactly the
/// fields that type takes. Decoding is strict: a missing field or a field of the wrong type is a decoding error,
/// which the server answers `bad_frame` naming the field (and still echoing the frame's `ref`, ``FrameEnvelope``).
/// The server decodes it; `ChatClient` and the demo bot encode it.
public enum ClientMessage: Sendable, Equatable {
    case resume(ResumeRequest)
    case send(SendRequest)
    case edit(EditRequest)
    case delete(DeleteRequest)
    case react(ReactRequest)
    case history(HistoryRequest)
    case read(ReadRequest)
    case typing(TypingRequest)
    case ping

    /// The `type` of each frame.
    public enum Kind: String, Sendable, CaseIterable {
        case resume, send, edit, delete, react, history, read, typing, ping
    }

    /// A `type` no case has.
    public struct UnknownType: Error, Equatable {
        public let type: String
    }

    public var kind: Kind {
        switch self {
        case .resume: .resume
        case .send: .send
        case .edit: .edit
        case .delete: .delete
        case .react: .react
        case .history: .history
        case .read: .read
        case .typing: .typing
        case .ping: .ping
        }
    }

    /// The `clientMsgID` of a frame that is acknowledged (`send`, `edit`, `delete`, `react`).
    public var clientMsgID: String? {
        switch self {
        case .send(let request): request.clientMsgID
        case .edit(let request): request.clientMsgID
        case .delete(let request): request.clientMsgID
        case .react(let request): request.clientMsgID
        case .resume, .history, .read, .typing, .ping: nil
        }
    }
}

extension ClientMessage: Codable {
    private enum TypeKey: String, CodingKey {
        case type
    }

    public init(from decoder: any Decoder) throws {
        let type = try decoder.container(keyedBy: TypeKey.self).decode(String.self, forKey: .type)
        guard let kind = Kind(rawValue: type) else { throw UnknownType(type: type) }
        switch kind {
        case .resume: self = .resume(try ResumeRequest(from: decoder))
        case .send: self = .send(try SendRequest(from: decoder))
        case .edit: self = .edit(try EditRequest(from: decoder))
        case .delete: self = .delete(try DeleteRequest(from: decoder))
        case .react: self = .react(try ReactRequest(from: decoder))
        case .history: self = .history(try HistoryRequest(from: decoder))
        case .read: self = .read(try ReadRequest(from: decoder))
        case .typing: self = .typing(try TypingRequest(from: decoder))
        case .ping: self = .ping
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .resume(let request): try request.encode(to: encoder)
        case .send(let request): try request.encode(to: encoder)
        case .edit(let request): try request.encode(to: encoder)
        case .delete(let request): try request.encode(to: encoder)
        case .react(let request): try request.encode(to: encoder)
        case .history(let request): try request.encode(to: encoder)
        case .read(let request): try request.encode(to: encoder)
        case .typing(let request): try request.encode(to: encoder)
        case .ping: break
        }
        var container = encoder.container(keyedBy: TypeKey.self)
        try container.encode(self.kind.rawValue, forKey: .type)
    }
}

/// `resume`: replay each listed room after the `seq` given, then follow it live (§8.2).
public struct ResumeRequest: Codable, Sendable, Equatable {
    /// The last `seq` the client has, per room; on the first `resume`, rooms not listed are followed from now on.
    public var rooms: [String: Int64]?
    public var ref: String?

    public init(rooms: [String: Int64]?, ref: String? = nil) {
        self.rooms = rooms
        self.ref = ref
    }
}

/// `send`: a new message (§8.3, §9.2).
public struct SendRequest: Codable, Sendable, Equatable {
    public var room: String
    public var clientMsgID: String
    /// May be empty when the message carries attachments.
    public var text: String?
    /// The `seq` of the message this one answers.
    public var replyTo: Int64?
    /// Ids from `POST /api/v1/attachments`.
    public var attachments: [String]?

    public init(room: String, clientMsgID: String, text: String?, replyTo: Int64? = nil, attachments: [String]? = nil) {
        self.room = room
        self.clientMsgID = clientMsgID
        self.text = text
        self.replyTo = replyTo
        self.attachments = attachments
    }
}

/// `edit`: new text for one of my messages (§9.2).
public struct EditRequest: Codable, Sendable, Equatable {
    public var room: String
    public var clientMsgID: String
    /// The `seq` of the message.
    public var target: Int64
    public var text: String

    public init(room: String, clientMsgID: String, target: Int64, text: String) {
        self.room = room
        self.clientMsgID = clientMsgID
        self.target = target
        self.text = text
    }
}

/// `delete`: one of my messages becomes a tombstone (§9.2).
public struct DeleteRequest: Codable, Sendable, Equatable {
    public var room: String
    public var clientMsgID: String
    public var target: Int64

    public init(room: String, clientMsgID: String, target: Int64) {
        self.room = room
        self.clientMsgID = clientMsgID
        self.target = target
    }
}

/// `react`: add my reaction with this emoji, or take it back if it is there (§9.2).
public struct ReactRequest: Codable, Sendable, Equatable {
    public var room: String
    public var clientMsgID: String
    public var target: Int64
    /// Exactly one emoji; a missing one is `bad_emoji`, as a wrong one is.
    public var emoji: String?

    public init(room: String, clientMsgID: String, target: Int64, emoji: String?) {
        self.room = room
        self.clientMsgID = clientMsgID
        self.target = target
        self.emoji = emoji
    }
}

/// `history`: a page of a room's events before `before` (§8.4).
public struct HistoryRequest: Codable, Sendable, Equatable {
    public var room: String
    public var before: Int64?
    /// 1 to 200; 50 when absent.
    public var limit: Int?
    public var ref: String?

    public init(room: String, before: Int64? = nil, limit: Int? = nil, ref: String? = nil) {
        self.room = room
        self.before = before
        self.limit = limit
        self.ref = ref
    }
}

/// `read`: I have read the room up to `seq` (§8.5).
public struct ReadRequest: Codable, Sendable, Equatable {
    public var room: String
    public var seq: Int64
    public var ref: String?

    public init(room: String, seq: Int64, ref: String? = nil) {
        self.room = room
        self.seq = seq
        self.ref = ref
    }
}

/// `typing`: I am typing in the room (§9.4).
public struct TypingRequest: Codable, Sendable, Equatable {
    public var room: String
    public var ref: String?

    public init(room: String, ref: String? = nil) {
        self.room = room
        self.ref = ref
    }
}
