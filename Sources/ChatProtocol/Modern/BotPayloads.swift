import Foundation

/// `POST /api/v1/bots`: a new bot's username (the rules of people's) and display name (the username when absent).
public struct BotCreateRequest: Codable, Sendable, Equatable {
    public var username: String
    public var displayName: String?

    public init(username: String, displayName: String? = nil) {
        self.username = username
        self.displayName = displayName
    }
}

/// What `POST /api/v1/bots` and `POST /api/v1/bots/{id}/token` return: the bot and its token, shown this once.
public struct BotTokenPayload: Codable, Sendable, Equatable {
    public var id: UUID
    public var username: String
    /// Send as `Authorization: Bearer <token>`; it does not expire.
    public var token: String

    public init(id: UUID, username: String, token: String) {
        self.id = id
        self.username = username
        self.token = token
    }
}

/// `GET /api/v1/bots`: my bots, by username.
public struct BotList: Codable, Sendable, Equatable {
    public var bots: [UserProfile]

    public init(bots: [UserProfile]) {
        self.bots = bots
    }
}
