import Foundation

/// Any frame a client might send on `/api/v1/ws`, every field optional: for tests of the raw wire, which send
/// what a correct client never would (no `type`, a field missing or of another kind). Clients and the server use
/// `ClientMessage`, whose cases hold exactly the fields each type takes.
public struct ClientFrame: Codable, Sendable, Equatable {
    /// `resume`, `send`, `edit`, `delete`, `react`, `read`, `typing`, `history` or `ping`.
    public var type: String?
    public var room: String?
    public var clientMsgID: String?
    public var text: String?
    /// For `resume`: the last sequence number the client has, per room.
    public var rooms: [String: Int64]?
    /// For `read`: the last sequence number read.
    public var seq: Int64?
    public var before: Int64?
    public var limit: Int?
    /// Echoed in the answer (and in errors), so the client can match them.
    public var ref: String?
    /// For `edit`, `delete` and `react`: the `seq` of the message they apply to.
    public var target: Int64?
    /// For `react`.
    public var emoji: String?
    /// For `send`: the `seq` of the message this one answers.
    public var replyTo: Int64?
    /// For `send`: ids from `POST /api/v1/attachments`.
    public var attachments: [String]?

    public init(
        type: String?, room: String? = nil, clientMsgID: String? = nil, text: String? = nil,
        rooms: [String: Int64]? = nil,
        seq: Int64? = nil, before: Int64? = nil, limit: Int? = nil, ref: String? = nil, target: Int64? = nil,
        emoji: String? = nil, replyTo: Int64? = nil, attachments: [String]? = nil
    ) {
        self.target = target
        self.emoji = emoji
        self.replyTo = replyTo
        self.attachments = attachments
        self.seq = seq
        self.type = type
        self.room = room
        self.clientMsgID = clientMsgID
        self.text = text
        self.rooms = rooms
        self.before = before
        self.limit = limit
        self.ref = ref
    }
}
