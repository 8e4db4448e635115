import Foundation

/// `POST /api/v1/register`: a new account.
public struct RegisterRequest: Codable, Sendable, Equatable {
    public var username: String
    public var password: String
    /// Shown instead of the username; defaults to it.
    public var displayName: String?
    /// An invitation's code (PROTOCOL.md §10.4): needed with `--registration invite`, welcome otherwise.
    public var invite: String?

    public init(username: String, password: String, displayName: String? = nil, invite: String? = nil) {
        self.username = username
        self.password = password
        self.displayName = displayName
        self.invite = invite
    }
}

/// `POST /api/v1/login`.
public struct LoginRequest: Codable, Sendable, Equatable {
    public var username: String
    public var password: String

    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }
}

/// `PATCH /api/v1/me`: only the fields present change.
public struct ProfileUpdate: Codable, Sendable, Equatable {
    public var displayName: String?
    /// A colour as `#RRGGBB`.
    public var avatarColor: String?

    public init(displayName: String? = nil, avatarColor: String? = nil) {
        self.displayName = displayName
        self.avatarColor = avatarColor
    }
}

/// A user as every client may see them.
public struct UserProfile: Codable, Sendable, Equatable, Hashable {
    public var id: UUID
    public var username: String
    public var displayName: String
    /// `#RRGGBB`, derived from the username until the user picks one.
    public var avatarColor: String
    /// One or two letters for an avatar, from the display name.
    public var initials: String
    /// `true` for an administrator of the server (PROTOCOL.md §10); absent for everyone else.
    public var admin: Bool?
    /// `true` for a bot (PROTOCOL.md §9.13); absent for people.
    public var bot: Bool?
    /// Where the user's picture is (PROTOCOL.md §6.5); absent when the colour and initials stand for them. The address
    /// changes with the picture.
    public var avatarURL: String?

    public init(
        id: UUID, username: String, displayName: String, avatarColor: String, initials: String, admin: Bool? = nil,
        bot: Bool? = nil, avatarURL: String? = nil
    ) {
        self.avatarURL = avatarURL
        self.id = id
        self.username = username
        self.displayName = displayName
        self.avatarColor = avatarColor
        self.initials = initials
        self.admin = admin
        self.bot = bot
    }
}

/// `PUT /api/v1/rooms/{id}/avatar`: where the room's new picture is.
public struct AvatarPayload: Codable, Sendable, Equatable {
    public var avatarURL: String

    public init(avatarURL: String) {
        self.avatarURL = avatarURL
    }
}

/// What register and login return: a bearer token for every other call.
public struct AuthSession: Codable, Sendable, Equatable {
    /// Send as `Authorization: Bearer <token>`.
    public var token: String
    /// When the token stops working, in milliseconds since 1970-01-01T00:00:00Z.
    public var expiresAt: Int64
    public var user: UserProfile

    public init(token: String, expiresAt: Int64, user: UserProfile) {
        self.token = token
        self.expiresAt = expiresAt
        self.user = user
    }
}

/// The body of every error from `/api/v1`: a stable `code` for programs and a `message` for people.
public struct APIErrorBody: Codable, Sendable, Equatable {
    public var code: ErrorCode
    public var message: String

    public init(code: ErrorCode, message: String) {
        self.code = code
        self.message = message
    }
}

/// `POST /api/v1/me/password`: the current password and the new one.
public struct PasswordChange: Codable, Sendable, Equatable {
    public var password: String
    public var newPassword: String

    public init(password: String, newPassword: String) {
        self.password = password
        self.newPassword = newPassword
    }
}

/// One of my contacts (PROTOCOL.md §6.4): someone I added, or share a direct room or a group with.
public struct ContactPayload: Codable, Sendable, Equatable {
    public var user: UserProfile
    /// `true` when I added them (`DELETE /me/contacts/{id}` removes that); absent when a shared room makes them one.
    public var added: Bool?

    public init(user: UserProfile, added: Bool?) {
        self.user = user
        self.added = added
    }
}

/// `GET /api/v1/me/contacts`.
public struct ContactList: Codable, Sendable, Equatable {
    public var contacts: [ContactPayload]

    public init(contacts: [ContactPayload]) {
        self.contacts = contacts
    }
}
