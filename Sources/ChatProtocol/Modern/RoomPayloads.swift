import Foundation

/// Who sent a message.
public struct SenderPayload: Codable, Sendable, Equatable {
    public var id: UUID
    public var name: String
    /// `"chat"` or `"tcp"` for a client of a tutorial protocol, `"webhook"` for an incoming webhook (neither has an
    /// account); absent for an account.
    public var via: String?

    public init(id: UUID, name: String, via: String? = nil) {
        self.id = id
        self.name = name
        self.via = via
    }
}

/// One event of a room's sequence as the modern protocol shows it (PROTOCOL.md §9.1): a message, or an edit, delete
/// or reaction that applies to the message whose `seq` is `target`.
public struct MessagePayload: Codable, Sendable, Equatable {
    public var room: String
    /// Position in the room: starts at 1, increases by 1, never reused.
    public var seq: Int64
    public var id: UUID
    public var sender: SenderPayload
    /// `message`, `edit`, `delete`, `reaction`, `preview`, `pin`, `rename`, or a membership change (`joined`,
    /// `left`, `invited`, `removed`, `banned`, `role`); a newer server's kind is kept as ``WireKind/unknown(_:)``.
    public var kind: WireKind<EventKind>
    /// A message's current text, or an edit's new text; empty for deletes, reactions and deleted messages.
    public var text: String
    /// Milliseconds since 1970-01-01T00:00:00Z.
    public var date: Int64
    /// The `seq` of the message an edit, delete or reaction applies to.
    public var target: Int64?
    /// A reaction's emoji.
    public var emoji: String?
    /// Whether a reaction was added (`true`) or removed (`false`); for a `pin`, whether the message was pinned.
    public var added: Bool?
    /// The message this one answers.
    public var replyTo: QuotePayload?
    public var attachments: [AttachmentPayload]?
    /// When the message was last edited (milliseconds), if ever.
    public var editedAt: Int64?
    /// `true` for a deleted message's tombstone.
    public var deleted: Bool?
    /// The message's reactions now, one entry per emoji.
    public var reactions: [ReactionPayload]?
    /// The account a membership change is about (``EventKind/isMembershipChange``).
    public var member: SenderPayload?
    /// The accounts a message (or an edit's new text) mentions by `@username`; absent when none.
    public var mentions: [UUID]?
    /// `true` when it mentions every member (`@all`).
    public var mentionsAll: Bool?
    /// A message's link preview now; for a `preview` event, the preview it sets (absent: it removes it).
    public var preview: LinkPreviewPayload?
    /// For a forwarded message: who wrote the original (PROTOCOL.md §7.6).
    public var forwardedFrom: SenderPayload?
    /// `true` while the message is pinned to the top of its room (PROTOCOL.md §7.8).
    public var pinned: Bool?

    public init(
        room: String, seq: Int64, id: UUID, sender: SenderPayload, kind: WireKind<EventKind> = .known(.message),
        text: String,
        date: Int64,
        target: Int64? = nil, emoji: String? = nil, added: Bool? = nil, replyTo: QuotePayload? = nil,
        attachments: [AttachmentPayload]? = nil, editedAt: Int64? = nil, deleted: Bool? = nil,
        reactions: [ReactionPayload]? = nil, member: SenderPayload? = nil, mentions: [UUID]? = nil,
        mentionsAll: Bool? = nil, preview: LinkPreviewPayload? = nil, forwardedFrom: SenderPayload? = nil,
        pinned: Bool? = nil
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
        self.mentionsAll = mentionsAll
    }

    /// Whether it mentions `user`, by name or by `@all`.
    public func mentions(_ user: UUID) -> Bool {
        self.mentionsAll == true || self.mentions?.contains(user) == true
    }
}

/// One of my rooms, as `GET /api/v1/rooms` lists it.
public struct RoomSummary: Codable, Sendable, Equatable {
    public var id: String
    /// `channel`, `group` or `direct`; a newer server's kind is kept as ``WireKind/unknown(_:)``.
    public var kind: WireKind<RoomKind>
    /// The channel or group name; for a direct room, the other member's display name.
    public var name: String
    /// For a direct room, the other member.
    public var peer: UserProfile?
    public var lastMessage: MessagePayload?
    /// The room's highest sequence number (0 when empty).
    public var latestSeq: Int64
    public var lastReadSeq: Int64
    /// `message` events from other members after `lastReadSeq`.
    public var unreadCount: Int64
    /// Of those, the ones that mention me (by name or `@all`).
    public var mentionCount: Int64?
    /// What of this room notifies me (PROTOCOL.md §9.10): mine, or the default for its kind.
    public var notifications: NotificationLevel?
    /// For a direct room: `true` when I blocked the other member (PROTOCOL.md §10.7).
    public var blocked: Bool?
    /// For a direct room, how far the other member has read (so a client can show "Read" after a reload).
    public var peerLastReadSeq: Int64?
    /// My role in a channel or group; absent for a direct room.
    public var role: RoomRole?
    /// `true` when a moderator muted me here: I may read, not send.
    public var muted: Bool?
    /// `true` when I pinned the room to the top of my list (on every device).
    public var pinned: Bool?
    /// What I left unsent in this room (on any device); absent when nothing.
    public var draft: String?
    /// `true` when I marked the room unread (on any device) and have not read further since.
    public var markedUnread: Bool?
    /// Where a channel's or group's picture is (PROTOCOL.md §7.7); a direct room's is its `peer`'s.
    public var avatarURL: String?

    public init(
        id: String, kind: WireKind<RoomKind>, name: String, peer: UserProfile?, lastMessage: MessagePayload?,
        latestSeq: Int64,
        lastReadSeq: Int64, unreadCount: Int64, peerLastReadSeq: Int64? = nil, role: RoomRole? = nil,
        muted: Bool? = nil, mentionCount: Int64? = nil, notifications: NotificationLevel? = nil, blocked: Bool? = nil,
        pinned: Bool? = nil, draft: String? = nil, markedUnread: Bool? = nil, avatarURL: String? = nil
    ) {
        self.avatarURL = avatarURL
        self.markedUnread = markedUnread
        self.pinned = pinned
        self.draft = draft
        self.blocked = blocked
        self.mentionCount = mentionCount
        self.notifications = notifications
        self.peerLastReadSeq = peerLastReadSeq
        self.role = role
        self.muted = muted
        self.id = id
        self.kind = kind
        self.name = name
        self.peer = peer
        self.lastMessage = lastMessage
        self.latestSeq = latestSeq
        self.lastReadSeq = lastReadSeq
        self.unreadCount = unreadCount
    }
}

/// A public channel, as `GET /api/v1/rooms/public` lists it.
public struct ChannelSummary: Codable, Sendable, Equatable {
    public var id: String
    public var name: String
    public var members: Int
    /// Whether the caller is a member.
    public var joined: Bool

    public init(id: String, name: String, members: Int, joined: Bool) {
        self.id = id
        self.name = name
        self.members = members
        self.joined = joined
    }
}

/// `POST /api/v1/rooms`.
public struct CreateRoomRequest: Codable, Sendable, Equatable {
    /// `channel` or `group`.
    public var kind: String
    public var name: String
    /// Usernames to add besides the creator.
    public var members: [String]?

    public init(kind: String, name: String, members: [String]? = nil) {
        self.kind = kind
        self.name = name
        self.members = members
    }
}

/// `POST /api/v1/rooms/{id}/invite` and `POST /api/v1/dms`.
/// The body of `PATCH /api/v1/rooms/{id}`.
public struct RenameRoomRequest: Codable, Sendable, Equatable {
    public var name: String

    public init(name: String) {
        self.name = name
    }
}

public struct UsernameRequest: Codable, Sendable, Equatable {
    public var username: String

    public init(username: String) {
        self.username = username
    }
}

/// `PUT /api/v1/rooms/{id}/notifications`: `all`, `mentions` or `none`.
public struct NotificationLevelRequest: Codable, Sendable, Equatable {
    public var level: String

    public init(level: String) {
        self.level = level
    }
}

/// `PUT /api/v1/rooms/{id}/members/{user}/role`: `member`, `moderator` or `owner`.
public struct RoleChange: Codable, Sendable, Equatable {
    public var role: String

    public init(role: String) {
        self.role = role
    }
}

/// One page of history: `GET /api/v1/rooms/{id}/messages?before=&limit=`.
/// `POST /api/v1/rooms/{id}/messages`: a message sent over HTTP (PROTOCOL.md §9.12), once per `clientMsgID`.
/// `POST /api/v1/rooms/{id}/forward` (PROTOCOL.md §7.6): message `seq` of `room`, sent again in the room of the path.
public struct ForwardRequest: Codable, Sendable, Equatable {
    public var room: String
    public var seq: Int64
    public var clientMsgID: String

    public init(room: String, seq: Int64, clientMsgID: String) {
        self.room = room
        self.seq = seq
        self.clientMsgID = clientMsgID
    }
}

public struct PostMessageRequest: Codable, Sendable, Equatable {
    public var text: String
    public var clientMsgID: String
    /// The `seq` of the message this one answers.
    public var replyTo: Int64?

    public init(text: String, clientMsgID: String, replyTo: Int64? = nil) {
        self.text = text
        self.clientMsgID = clientMsgID
        self.replyTo = replyTo
    }
}

/// `GET /api/v1/rooms/{id}/pins` (PROTOCOL.md §7.8): the room's pinned messages in their current state, the most
/// recently pinned first.
public struct PinnedMessagesPayload: Codable, Sendable, Equatable {
    public var messages: [MessagePayload]

    public init(messages: [MessagePayload]) {
        self.messages = messages
    }
}

public struct HistoryPage: Codable, Sendable, Equatable {
    /// Oldest first.
    public var messages: [MessagePayload]
    /// Whether older messages exist; when `false` this page reaches the room's first message.
    public var hasMore: Bool
    /// For a page `after` or `around` a message: whether newer messages exist (absent on other pages, which end at
    /// the newest).
    public var hasNewer: Bool?

    public init(messages: [MessagePayload], hasMore: Bool, hasNewer: Bool? = nil) {
        self.messages = messages
        self.hasMore = hasMore
        self.hasNewer = hasNewer
    }
}

/// A member of a room as `GET /api/v1/rooms/{id}/members` lists one: the profile (as `GET /me` shows it) with the
/// member's role and whether they are muted, in the same object, so a client that reads only profiles still can.
public struct RoomMemberPayload: Codable, Sendable, Equatable {
    public var profile: UserProfile
    public var role: RoomRole
    /// `true` for a muted member; absent otherwise.
    public var muted: Bool?

    public init(profile: UserProfile, role: RoomRole, muted: Bool) {
        self.profile = profile
        self.role = role
        self.muted = muted ? true : nil
    }

    private enum CodingKeys: String, CodingKey { case role, muted }

    public init(from decoder: any Decoder) throws {
        self.profile = try UserProfile(from: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.role = try container.decode(RoomRole.self, forKey: .role)
        self.muted = try container.decodeIfPresent(Bool.self, forKey: .muted)
    }

    public func encode(to encoder: any Encoder) throws {
        try self.profile.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(self.role, forKey: .role)
        try container.encodeIfPresent(self.muted, forKey: .muted)
    }
}

/// `PUT /api/v1/rooms/{id}/draft`: what I left unsent; empty for none.
public struct DraftRequest: Codable, Sendable, Equatable {
    public var text: String

    public init(text: String) {
        self.text = text
    }
}
