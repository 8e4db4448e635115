import ChatProtocol
import Foundation

/// Names a room. The lobby shared by the tutorial protocols is ``RoomID/lobby``.
public struct RoomID: Hashable, Sendable, Codable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let rawValue: String

    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    public var description: String { self.rawValue }

    /// The room every tutorial client talks in.
    public static let lobby: RoomID = "lobby"
}

/// Who sent a message, as every transport can show it.
public struct Sender: Hashable, Sendable {
    public var name: String
    /// An account's id, or for a tutorial client the id it named itself with (`/chat`) or was given (TCP), or an
    /// incoming webhook's id.
    public var id: UUID
    /// How a sender without an account reached the room; `nil` for an account.
    public var via: SenderVia?

    public init(name: String, id: UUID, via: SenderVia? = nil) {
        self.name = name
        self.id = id
        self.via = via
    }

    /// Whether both are the same author: the same account, or the same tutorial client. A `/chat` client that
    /// names itself with an account's id is never that account.
    public func isSameAuthor(as other: Sender) -> Bool {
        self.id == other.id && self.via == other.via
    }
}

/// How a sender without an account reaches a room: a tutorial protocol, whose clients name themselves, or an incoming
/// webhook, named by whoever made it.
public enum SenderVia: String, Sendable, Hashable, Codable {
    /// The Vapor tutorial's WebSocket JSON chat at `/chat`.
    case chat
    /// The DogeChat TCP text protocol.
    case tcp
    /// An incoming webhook (`POST /hooks/SECRET`, PROTOCOL.md §9.14): the sender's id is the webhook's.
    case webhook
}

/// What a draft asks the room to do.
public enum DraftBody: Sendable, Hashable {
    /// A new message, possibly answering an earlier one and carrying attachments already checked by the caller.
    case message(text: String, replyTo: Int64? = nil, attachments: [Attachment] = [])
    /// Replace the text of the sender's own message `target`.
    case edit(target: Int64, text: String)
    /// Delete the sender's own message `target`.
    case delete(target: Int64)
    /// Delete message `target`, whoever sent it: a moderator's or an administrator's removal, already allowed by
    /// the caller. It is a `delete` event whose sender is the one who removed it.
    case removal(target: Int64)
    /// Toggle the sender's `emoji` reaction on message `target`.
    case reaction(target: Int64, emoji: String)
    /// A copy of another room's message, already read by the caller: its text and attachments (by reference), marked
    /// as written by `original` (PROTOCOL.md §7.6). Its text mentions nobody again.
    case forward(text: String, attachments: [Attachment], original: Sender)
    /// Set the link preview of the sender's own message `target`, or remove it (`nil`) (PROTOCOL.md §9.15).
    case preview(target: Int64, preview: LinkPreview?)
    /// Pin message `target` to the top of the room, or unpin it; the caller checked who may (PROTOCOL.md §7.8).
    case pin(target: Int64, pinned: Bool)
    /// Give the room (a channel or group) a new name, already checked by the caller.
    case rename(name: String)
    /// A change of who is in the room or with what role, already allowed by the caller; storing it changes the
    /// membership in the same transaction (``MembershipChange``).
    case membership(MembershipChange)

    /// The message (or reply) this draft depends on, which the room must read before it can commit the draft.
    var target: Int64? {
        switch self {
        case .message(_, let replyTo, _): replyTo
        case .edit(let target, _), .delete(let target), .removal(let target), .reaction(let target, _),
            .preview(let target, _), .pin(let target, _):
            target
        case .rename, .membership, .forward: nil
        }
    }
}

/// Who joins, leaves or changes role, and how: the membership events of PROTOCOL.md §9.1. `member` is the account
/// it is about; the draft's sender is who made the change (the member themselves for `joined` and `left`).
public struct MembershipChange: Sendable, Hashable {
    public var kind: EventKind
    public var member: Sender
    /// For ``EventKind/role``: the member's new role.
    public var role: RoomRole?

    public static func joined(_ member: Sender) -> Self { Self(kind: .joined, member: member) }
    public static func left(_ member: Sender) -> Self { Self(kind: .left, member: member) }
    public static func invited(_ member: Sender) -> Self { Self(kind: .invited, member: member) }
    public static func removed(_ member: Sender) -> Self { Self(kind: .removed, member: member) }
    public static func banned(_ member: Sender) -> Self { Self(kind: .banned, member: member) }
    public static func role(_ role: RoomRole, of member: Sender) -> Self {
        Self(kind: .role, member: member, role: role)
    }
}

/// The roles live in ChatProtocol, shared with the clients.
public typealias RoomRole = ChatProtocol.RoomRole

/// Something a client submitted, before the room has sequenced and committed it.
public struct MessageDraft: Sendable {
    public var sender: Sender
    public var body: DraftBody
    /// The sender's own id for this draft (modern clients): a retry with the same id stores nothing new.
    public var clientMsgID: String?

    public init(sender: Sender, body: DraftBody, clientMsgID: String? = nil) {
        self.sender = sender
        self.body = body
        self.clientMsgID = clientMsgID
    }

    /// A plain text message.
    public init(sender: Sender, text: String, clientMsgID: String? = nil) {
        self.init(sender: sender, body: .message(text: text), clientMsgID: clientMsgID)
    }
}

/// The kinds of room event live in ChatProtocol, shared with the clients.
public typealias EventKind = ChatProtocol.EventKind

/// The quote a reply carries.
public struct Quote: Hashable, Sendable {
    public var seq: Int64
    public var sender: Sender
    /// The start of the quoted text; empty once the quoted message is deleted.
    public var text: String

    /// How much of the quoted message a reply keeps.
    public static let maxCharacters = 100

    public init(seq: Int64, sender: Sender, text: String) {
        self.seq = seq
        self.sender = sender
        self.text = text
    }
}

/// An uploaded file that a message carries.
public struct Attachment: Hashable, Sendable, Codable {
    public var id: UUID
    public var name: String
    public var contentType: String
    public var size: Int64
    public var width: Int?
    public var height: Int?
    /// A voice message's length in milliseconds, as its uploader declared it.
    public var durationMs: Int?

    public init(
        id: UUID, name: String, contentType: String, size: Int64, width: Int? = nil, height: Int? = nil,
        durationMs: Int? = nil
    ) {
        self.durationMs = durationMs
        self.id = id
        self.name = name
        self.contentType = contentType
        self.size = size
        self.width = width
        self.height = height
    }

    public var isImage: Bool { self.contentType.hasPrefix("image/") }
    public var isAudio: Bool { self.contentType.hasPrefix("audio/") }
}

/// What a link in a message shows, fetched by the server (PROTOCOL.md §9.15).
public typealias LinkPreview = LinkPreviewPayload

/// Everyone who reacted to a message with one emoji, in the order they reacted.
public typealias Reaction = ReactionPayload

/// A committed event: durable in the store, with its place in the room's order.
///
/// For a `message`, the last fields describe its state when it was read (its text after edits, whether it is
/// deleted, its reactions); an event as first delivered carries its state at commit.
public struct StoredMessage: Hashable, Sendable {
    public var room: RoomID
    /// Position in the room, starting at 1, gap-free and increasing.
    public var seq: Int64
    public var id: UUID
    public var sender: Sender
    public var kind: EventKind
    public var text: String
    public var date: Date
    public var clientMsgID: String?
    /// For edits, deletes, reactions, previews and pins: the `seq` of the message they apply to.
    public var target: Int64?
    public var emoji: String?
    /// For a reaction: whether it was added (else removed); for a pin, whether the message was pinned (else unpinned).
    public var added: Bool?
    public var replyTo: Quote?
    public var attachments: [Attachment]
    public var editedAt: Date?
    public var deleted: Bool
    public var reactions: [Reaction]
    /// For a membership change: the account it is about.
    public var member: Sender?
    /// For a message or an edit: whom its text mentions (an edit's, the message's new mentions).
    public var mentions: Mentions
    /// For a message: its link preview now; for a `preview` event, the one it sets (`nil`: it removes it).
    public var preview: LinkPreview?
    /// For a forwarded message: who wrote the original.
    public var forwardedFrom: Sender?
    /// For a message: whether it is pinned to the top of its room now (PROTOCOL.md §7.8).
    public var pinned: Bool

    /// Whether storing it moves its sender's read position to it (PROTOCOL.md §8.5, what I write I have read): a
    /// message, not an edit, delete or reaction, sent with a `clientMsgID`, that is over the modern protocol (the
    /// tutorial protocols' senders have no read position). Derived from what is stored, so every node agrees.
    public var marksRead: Bool { self.kind == .message && self.isAccountSend }

    /// Whether an account sent it over the modern protocol (it has a `clientMsgID`; the tutorial protocols' senders
    /// have no account): what a store that checks senders as it commits checks (``MessageStore/appendEach(_:isolation:)``).
    public var isAccountSend: Bool { self.clientMsgID != nil }

    public init(
        room: RoomID, seq: Int64, id: UUID, sender: Sender, kind: EventKind = .message, text: String, date: Date,
        clientMsgID: String? = nil, target: Int64? = nil, emoji: String? = nil, added: Bool? = nil,
        replyTo: Quote? = nil, attachments: [Attachment] = [], editedAt: Date? = nil, deleted: Bool = false,
        reactions: [Reaction] = [], member: Sender? = nil, mentions: Mentions = .none, preview: LinkPreview? = nil,
        forwardedFrom: Sender? = nil, pinned: Bool = false
    ) {
        self.pinned = pinned
        self.preview = preview
        self.forwardedFrom = forwardedFrom
        self.room = room
        self.seq = seq
        self.id = id
        self.sender = sender
        self.kind = kind
        self.text = text
        self.date = date
        self.clientMsgID = clientMsgID
        self.target = target
        self.emoji = emoji
        self.added = added
        self.replyTo = replyTo
        self.attachments = attachments
        self.editedAt = editedAt
        self.deleted = deleted
        self.reactions = reactions
        self.member = member
        self.mentions = mentions
    }

    /// Whether a tutorial client (which knows only plain messages) can show this event.
    public var isVisibleMessage: Bool { self.kind == .message && !self.deleted }

    /// Applies an edit, delete or reaction that targets this message; other events change nothing
    /// (``EventFolding``).
    public mutating func apply(_ event: StoredMessage) {
        EventFolding.apply(event, to: &self)
    }
}

extension StoredMessage: FoldableMessage {
    public var eventKind: EventKind? { self.kind }
    public var senderID: UUID { self.sender.id }
    public var isDeleted: Bool { self.deleted }

    public var linkPreview: LinkPreview? {
        get { self.preview }
        set { self.preview = newValue }
    }

    public var reactionList: [ReactionPayload] {
        get { self.reactions }
        set { self.reactions = newValue }
    }

    public var isPinned: Bool {
        get { self.pinned }
        set { self.pinned = newValue }
    }

    public mutating func markEdited(by edit: StoredMessage) {
        self.editedAt = edit.date
        self.mentions = edit.mentions
    }

    public mutating func becomeTombstone() {
        self.text = ""
        self.deleted = true
        self.attachments = []
        self.reactions = []
        self.preview = nil
        self.editedAt = nil
        self.mentions = .none
        self.pinned = false
    }
}
