/// What an event of a room's sequence is (PROTOCOL.md §9.1).
public enum EventKind: String, Sendable, Hashable, Codable, CaseIterable {
    case message
    case edit
    case delete
    case reaction
    /// The room's new name, in `text`; it targets no message.
    case rename
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
    public var eventKind: EventKind? { EventKind(rawValue: self.kind) }
}

extension RoomSummary {
    /// The room's kind, or `nil` for a kind this build does not know.
    public var roomKind: RoomKind? { RoomKind(rawValue: self.kind) }
}
