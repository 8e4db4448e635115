import Foundation

/// One message an account sent, as its export shows it (PROTOCOL.md §10.6): the text as it is now (after edits).
public struct SentMessage: Sendable, Equatable {
    public var room: RoomID
    public var seq: Int64
    public var date: Date
    public var text: String
    public var editedAt: Date?
    public var attachments: [Attachment]

    public init(room: RoomID, seq: Int64, date: Date, text: String, editedAt: Date?, attachments: [Attachment]) {
        self.room = room
        self.seq = seq
        self.date = date
        self.text = text
        self.editedAt = editedAt
        self.attachments = attachments
    }
}

/// The messages an account sent and has not deleted, a page at a time: by room, then `seq`, after `after`.
public protocol SentMessages: Sendable {
    func messages(sentBy account: UUID, after: (room: RoomID, seq: Int64)?, limit: Int) async throws -> [SentMessage]
}

/// The messages that mention an account (PROTOCOL.md §9.10), in the rooms it is in now, newest first. `cursor` orders
/// them: a page goes on below the last one's.
public protocol MentionedMessages: Sendable {
    func messages(mentioning user: UUID, before cursor: Int64?, limit: Int) async throws
        -> [(cursor: Int64, message: StoredMessage)]
}
