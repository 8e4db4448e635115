import ChatCore
import ChatProtocol
import FluentKit
import Foundation

/// A row of the `messages` table: one event of a room's sequence (PROTOCOL.md §9.1).
///
/// `@unchecked Sendable` as FluentKit's own models are: property wrappers hold the storage, and a record is only
/// touched by the task that loaded or built it.
final class MessageRecord: Model, @unchecked Sendable {
    static let schema = "messages"

    @ID(key: .id) var id: UUID?
    @Field(key: "room") var room: String
    @Field(key: "seq") var seq: Int64
    @Field(key: "sender_name") var senderName: String
    @Field(key: "sender_id") var senderID: UUID
    /// `chat` or `tcp` for a tutorial client, `NULL` for an account.
    @OptionalField(key: "sender_via") var senderVia: String?
    @Field(key: "text") var text: String
    @Field(key: "created_at") var createdAt: Date
    @OptionalField(key: "client_msg_id") var clientMsgID: String?
    @Field(key: "kind") var kind: String
    @OptionalField(key: "target_seq") var targetSeq: Int64?
    @OptionalField(key: "emoji") var emoji: String?
    @OptionalField(key: "added") var added: Bool?
    @OptionalField(key: "reply_seq") var replySeq: Int64?
    @OptionalField(key: "reply_sender_id") var replySenderID: UUID?
    @OptionalField(key: "reply_sender_name") var replySenderName: String?
    @OptionalField(key: "reply_sender_via") var replySenderVia: String?
    @OptionalField(key: "reply_text") var replyText: String?
    /// The attachments as JSON, `nil` when there are none.
    @OptionalField(key: "attachments") var attachments: String?
    @OptionalField(key: "edited_at") var editedAt: Date?
    @Field(key: "deleted") var deleted: Bool

    init() {}

    /// The columns the store inserts, in the order of ``values(of:)``.
    static let columns = [
        "id", "room", "seq", "sender_name", "sender_id", "text", "created_at", "client_msg_id", "kind", "target_seq",
        "emoji", "added", "reply_seq", "reply_sender_id", "reply_sender_name", "reply_text", "attachments", "deleted",
        "sender_via",
        "reply_sender_via",
    ]

    /// One row's values, bound through the driver's own encoder (the one Fluent reads them back with).
    static func values(of message: StoredMessage) -> [any Encodable & Sendable] {
        let attachments =
            message.attachments.isEmpty
            ? nil : (try? JSONEncoder().encode(message.attachments)).map { String(decoding: $0, as: UTF8.self) }
        return [
            message.id, message.room.rawValue, message.seq, message.sender.name, message.sender.id, message.text,
            message.date,
            message.clientMsgID, message.kind.rawValue, message.target, message.emoji, message.added,
            message.replyTo?.seq,
            message.replyTo?.sender.id, message.replyTo?.sender.name, message.replyTo?.text, attachments,
            message.deleted,
            message.sender.via?.rawValue, message.replyTo?.sender.via?.rawValue,
        ]
    }

    /// The event as stored; a message's reactions are kept in their own table and added by the store.
    func storedMessage() throws -> StoredMessage {
        var quote: Quote?
        if let seq = self.replySeq, let id = self.replySenderID {
            let via = self.replySenderVia.flatMap(TutorialProtocol.init(rawValue:))
            quote = Quote(
                seq: seq, sender: Sender(name: self.replySenderName ?? "", id: id, via: via), text: self.replyText ?? ""
            )
        }
        let attachments =
            try self.attachments.map { try JSONDecoder().decode([Attachment].self, from: Data($0.utf8)) } ?? []
        return StoredMessage(
            room: RoomID(self.room), seq: self.seq, id: try self.requireID(),
            sender: Sender(
                name: self.senderName, id: self.senderID, via: self.senderVia.flatMap(TutorialProtocol.init(rawValue:))),
            kind: EventKind(rawValue: self.kind) ?? .message,
            text: self.text, date: self.createdAt, clientMsgID: self.clientMsgID, target: self.targetSeq,
            emoji: self.emoji,
            added: self.added, replyTo: quote, attachments: attachments, editedAt: self.editedAt, deleted: self.deleted)
    }
}
