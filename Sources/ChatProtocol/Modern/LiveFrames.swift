import Foundation

/// `{"type":"typing"}`: a member is typing in a room (PROTOCOL.md §9.4). Show it for about 5 seconds.
public struct TypingFrame: Codable, Sendable, Equatable {
    public var type = ServerMessage.Kind.typing
    public var room: String
    public var user: SenderPayload

    public init(room: String, user: SenderPayload) {
        self.room = room
        self.user = user
    }
}

/// One user's presence.
public struct PresenceEntry: Codable, Sendable, Equatable {
    public var id: UUID
    public var online: Bool
    /// Milliseconds since 1970 when the user was last connected; present when offline.
    public var lastSeen: Int64?

    public init(id: UUID, online: Bool, lastSeen: Int64?) {
        self.id = id
        self.online = online
        self.lastSeen = lastSeen
    }
}

/// `{"type":"presence"}`: who is online now (after `hello`), then changes (PROTOCOL.md §9.5).
public struct PresenceFrame: Codable, Sendable, Equatable {
    public var type = ServerMessage.Kind.presence
    public var users: [PresenceEntry]

    public init(users: [PresenceEntry]) {
        self.users = users
    }
}

/// `{"type":"joined"}`: I was added to a room; its replay and live events follow (PROTOCOL.md §9.6).
public struct JoinedFrame: Codable, Sendable, Equatable {
    public var type = ServerMessage.Kind.joined
    public var room: RoomSummary

    public init(room: RoomSummary) {
        self.room = room
    }
}

/// `{"type":"left"}`: I left a room; nothing more arrives from it.
public struct LeftFrame: Codable, Sendable, Equatable {
    public var type = ServerMessage.Kind.left
    public var room: String

    public init(room: String) {
        self.room = room
    }
}

/// `{"type":"pong"}`: the answer to a `ping` frame (§8.7).
public struct PongFrame: Codable, Sendable, Equatable {
    public var type = ServerMessage.Kind.pong

    public init() {}
}
