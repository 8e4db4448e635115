import ChatCore
import ChatProtocol
import FluentKit
import Foundation
import SQLKit
import SQLiteNIO

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
        "reply_sender_via", "member_id", "member_name", "mentions", "mentions_all", "preview",
        "forwarded_from",
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
            message.sender.via?.rawValue, message.replyTo?.sender.via?.rawValue, message.member?.id,
            message.member?.name, Self.mentionsColumn(message.mentions), message.mentions.all,
            Self.previewColumn(message.preview), Self.forwardedColumn(message.forwardedFrom),
        ]
    }

    /// The `mentions` column: the ids as JSON, `NULL` for none (most messages).
    static func mentionsColumn(_ mentions: Mentions) -> String? {
        guard !mentions.accounts.isEmpty, let json = try? JSONEncoder().encode(mentions.accounts) else { return nil }
        return String(decoding: json, as: UTF8.self)
    }

    /// The `preview` column: the link preview as JSON, `NULL` for none (most events).
    static func previewColumn(_ preview: LinkPreview?) -> String? {
        guard let preview, let json = try? JSONEncoder().encode(preview) else { return nil }
        return String(decoding: json, as: UTF8.self)
    }

    /// The `forwarded_from` column: the original's sender as JSON (`{"id","name","via"?}`), `NULL` for a message
    /// that is not a forward.
    static func forwardedColumn(_ original: Sender?) -> String? {
        guard let original, let json = try? JSONEncoder().encode(OriginalSender(original)) else { return nil }
        return String(decoding: json, as: UTF8.self)
    }

    /// A forward's original sender as the column keeps it: the store's ``Sender``, not the wire's view of it.
    private struct OriginalSender: Codable {
        var id: UUID
        var name: String
        var via: SenderVia?

        init(_ sender: Sender) {
            self.id = sender.id
            self.name = sender.name
            self.via = sender.via
        }

        var sender: Sender { Sender(name: self.name, id: self.id, via: self.via) }
    }

    /// The columns every read selects, for ``storedMessage(from:)``.
    static let selected: SQLQueryString = """
        id, room, seq, sender_name, sender_id, sender_via, text, created_at, client_msg_id, kind, target_seq, emoji, \
        added, reply_seq, reply_sender_id, reply_sender_name, reply_sender_via, reply_text, attachments, edited_at, \
        deleted, member_id, member_name, mentions, mentions_all, preview, forwarded_from, pinned_at
        """

    /// The event in a row that holds the columns of ``selected``; a message's reactions are kept in their own table
    /// and added by the store.
    ///
    /// Decoded column by column rather than as a Fluent model: history pages, resumes and another node's commits
    /// read events by the thousand, and Fluent's property wrappers cost several times the decoding itself.
    static func storedMessage(from row: any SQLRow) throws -> StoredMessage {
        try self.storedMessage(from: DecodedEventColumns(row: row))
    }

    /// ``storedMessage(from:)`` for a row of SQLite, read from its values directly (``SQLiteEventColumns``).
    static func storedMessage(fromSQLite row: SQLiteRow) throws -> StoredMessage {
        try self.storedMessage(from: SQLiteEventColumns(row: row))
    }

    private static func storedMessage(from row: some EventColumns) throws -> StoredMessage {
        func via(_ column: String) throws -> SenderVia? {
            try row.valueIfPresent(column, as: String.self).flatMap(SenderVia.init(rawValue:))
        }
        var quote: Quote?
        if let seq = try row.valueIfPresent("reply_seq", as: Int64.self),
            let id = try row.valueIfPresent("reply_sender_id", as: UUID.self)
        {
            let name = try row.valueIfPresent("reply_sender_name", as: String.self) ?? ""
            let text = try row.valueIfPresent("reply_text", as: String.self) ?? ""
            quote = Quote(seq: seq, sender: Sender(name: name, id: id, via: try via("reply_sender_via")), text: text)
        }
        let attachments =
            try row.valueIfPresent("attachments", as: String.self).map {
                try JSONDecoder().decode([Attachment].self, from: Data($0.utf8))
            } ?? []
        return StoredMessage(
            room: RoomID(try row.value("room", as: String.self)),
            seq: try row.value("seq", as: Int64.self),
            id: try row.value("id", as: UUID.self),
            sender: Sender(
                name: try row.value("sender_name", as: String.self),
                id: try row.value("sender_id", as: UUID.self), via: try via("sender_via")),
            kind: EventKind(rawValue: try row.value("kind", as: String.self)) ?? .message,
            text: try row.value("text", as: String.self),
            date: try row.value("created_at", as: Date.self),
            clientMsgID: try row.valueIfPresent("client_msg_id", as: String.self),
            target: try row.valueIfPresent("target_seq", as: Int64.self),
            emoji: try row.valueIfPresent("emoji", as: String.self),
            added: try row.valueIfPresent("added", as: Bool.self), replyTo: quote, attachments: attachments,
            editedAt: try row.valueIfPresent("edited_at", as: Date.self),
            deleted: try row.value("deleted", as: Bool.self),
            member: try row.valueIfPresent("member_id", as: UUID.self).map {
                Sender(name: try row.valueIfPresent("member_name", as: String.self) ?? "", id: $0)
            },
            mentions: Mentions(
                accounts: try row.valueIfPresent("mentions", as: String.self).map {
                    try JSONDecoder().decode([UUID].self, from: Data($0.utf8))
                } ?? [],
                all: try row.valueIfPresent("mentions_all", as: Bool.self) ?? false),
            preview: try row.valueIfPresent("preview", as: String.self).map {
                try JSONDecoder().decode(LinkPreview.self, from: Data($0.utf8))
            },
            forwardedFrom: try row.valueIfPresent("forwarded_from", as: String.self).map {
                try JSONDecoder().decode(OriginalSender.self, from: Data($0.utf8)).sender
            },
            pinned: try row.valueIfPresent("pinned_at", as: Date.self) != nil)
    }
}
