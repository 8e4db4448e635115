/// What an event of a room's sequence is (PROTOCOL.md §9.1).
public enum EventKind: String, Sendable, Hashable, Codable, CaseIterable {
    case message
    case edit
    case delete
    case reaction
    /// The room's new name, in `text`; it targets no message.
    case rename
    /// `member` joined a channel (the sender is the member).
    case joined
    /// `member` left the room (the sender is the member).
    case left
    /// The sender added `member` to the room.
    case invited
    /// The sender, a moderator, removed `member` from the room.
    case removed
    /// The sender, a moderator, removed `member` and banned them from coming back.
    case banned
    /// The sender gave `member` the role in `text` (`member`, `moderator` or `owner`).
    case role
    /// Sets the link preview of message `target` to `preview`, or removes it when there is none (PROTOCOL.md §9.15).
    case preview
    /// Pins message `target` to the top of the room (`added` `true`) or unpins it (`false`) (PROTOCOL.md §7.8).
    case pin

    /// The kinds that change who is in a room, or with what role: each carries `member` (PROTOCOL.md §9.1).
    public var isMembershipChange: Bool {
        switch self {
        case .joined, .left, .invited, .removed, .banned, .role: true
        case .message, .edit, .delete, .reaction, .rename, .preview, .pin: false
        }
    }
}

/// What of a room notifies an account (PROTOCOL.md §9.10): every message, the ones that mention it, or nothing.
public enum NotificationLevel: String, Codable, Sendable, CaseIterable {
    case all
    case mentions
    case none

    /// Until the account chooses: direct rooms and groups notify of everything, channels (the lobby too) of mentions.
    public static func `default`(for kind: RoomKind) -> NotificationLevel {
        kind == .channel ? .mentions : .all
    }
}

/// What a member of a channel or group may do there (PROTOCOL.md §7.3), lowest first. A server administrator
/// stands above every owner.
public enum RoomRole: String, Codable, Sendable, CaseIterable, Comparable {
    case member
    /// Removes, bans and mutes members, and deletes any message of the room.
    case moderator
    /// The room's creator, or whom they handed it to: also names moderators.
    case owner

    public static func < (lhs: RoomRole, rhs: RoomRole) -> Bool {
        Self.allCases.firstIndex(of: lhs)! < Self.allCases.firstIndex(of: rhs)!
    }
}

/// What kind of room a room is.
public enum RoomKind: String, Codable, Sendable, CaseIterable {
    /// Public: anyone can list and join it.
    case channel
    /// Private: members invite others.
    case group
    /// A direct conversation: exactly two members, one room per pair.
    case direct
}

extension MessagePayload {
    /// The event's kind, or `nil` for a kind this build does not know (skip it, but count its `seq`).
    public var eventKind: EventKind? { self.kind.value }
}

extension RoomSummary {
    /// The room's kind, or `nil` for a kind this build does not know.
    public var roomKind: RoomKind? { self.kind.value }
}

/// A kind as a payload carries it: one this build knows, or the name of one it does not (a newer server's), kept as
/// it came. A client switches on the known ones and skips the rest; nothing is lost if it encodes the payload again.
public enum WireKind<Known: RawRepresentable & Hashable & Sendable>: Hashable, Sendable where Known.RawValue == String {
    case known(Known)
    case unknown(String)

    public init(rawValue: String) {
        self = Known(rawValue: rawValue).map { .known($0) } ?? .unknown(rawValue)
    }

    /// The name on the wire.
    public var rawValue: String {
        switch self {
        case .known(let kind): kind.rawValue
        case .unknown(let name): name
        }
    }

    /// The kind, or `nil` for one this build does not know.
    public var value: Known? {
        if case .known(let kind) = self { kind } else { nil }
    }
}

extension WireKind: Codable {
    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(self.rawValue)
    }
}
