import Foundation

/// A registered user, as stored.
public struct Account: Sendable, Equatable {
    public var id: UUID
    public var username: String
    public var displayName: String
    public var avatarColor: String
    /// A bcrypt digest; the password itself is never stored.
    public var passwordHash: String
    /// An administrator of the server (PROTOCOL.md §10).
    public var isAdministrator: Bool
    /// When an administrator deactivated the account; `nil` while it may sign in.
    public var deactivatedAt: Date?
    /// When it registered, as stored (`nil` before it is).
    public var createdAt: Date?
    /// When it was last connected, as stored when it went offline.
    public var lastSeenAt: Date?
    /// A bot (PROTOCOL.md §9.13): an account a program uses with a token, never a password.
    public var isBot: Bool
    /// The account that made the bot and manages it; `nil` for people, and for the server's own `echo-bot`.
    public var botOwner: UUID?
    /// The attachment holding the account's picture (PROTOCOL.md §6.5); `nil` for its colour and initials.
    public var avatar: UUID?

    public init(
        id: UUID, username: String, displayName: String, avatarColor: String, passwordHash: String,
        isAdministrator: Bool = false, deactivatedAt: Date? = nil, createdAt: Date? = nil, lastSeenAt: Date? = nil,
        isBot: Bool = false, botOwner: UUID? = nil, avatar: UUID? = nil
    ) {
        self.id = id
        self.username = username
        self.displayName = displayName
        self.avatarColor = avatarColor
        self.passwordHash = passwordHash
        self.isAdministrator = isAdministrator
        self.deactivatedAt = deactivatedAt
        self.createdAt = createdAt
        self.lastSeenAt = lastSeenAt
        self.isBot = isBot
        self.botOwner = botOwner
        self.avatar = avatar
    }
}

/// Durable storage of accounts and their bearer tokens. Tokens are stored only as hashes.
public protocol AccountStore: Sendable {
    /// Stores a new account; `false` when the username is taken (compared without case).
    func create(_ account: Account) async throws -> Bool
    /// Stores a new account and uses the invitation `code` once, in one transaction: neither happens without the
    /// other. An invitation used up or expired at `now` leaves nothing made.
    func create(_ account: Account, invitation code: String, now: Date) async throws -> AccountCreation
    /// Keeps a one-time password reset (its code's hash) for the account until `expiresAt`, with its audit entry.
    func storePasswordReset(hash: String, for id: UUID, expiresAt: Date, audit entry: AuditEntry) async throws
    /// Uses the unexpired reset `hash` once: the account gets `passwordHash` and loses every token, in one
    /// transaction. The account, or `nil` for a reset that is unknown, used or expired.
    func usePasswordReset(hash: String, now: Date, passwordHash: String) async throws -> UUID?
    func account(username: String) async throws -> Account?
    func account(id: UUID) async throws -> Account?
    /// The accounts with these ids, by username, at most `limit`.
    func accounts(ids: [UUID], limit: Int) async throws -> [Account]
    /// Saves a changed display name or colour.
    func update(_ account: Account) async throws
    /// Replaces an account's password digest and revokes every token it holds, in one transaction: whoever knew
    /// the old password is signed out everywhere.
    func resetPassword(of id: UUID, toHash hash: String) async throws
    /// Active accounts whose username or display name contains `query` (without case), by username.
    func search(_ query: String, limit: Int) async throws -> [Account]
    /// Every account, deactivated ones too, whose username or display name contains `query`, by username, from
    /// the one after the username `after`: the administrators' list, a page at a time.
    func allAccounts(matching query: String, after: String?, limit: Int) async throws -> [Account]
    /// Makes a deactivated account a deleted one (PROTOCOL.md §10.6), in one transaction: it is renamed `username`,
    /// shown as "Deleted user", given `passwordHash` (of a password no one knows), and leaves every room but its
    /// direct rooms, which stay for the other person. Returns the rooms it left.
    func anonymize(_ id: UUID, username: String, passwordHash: String) async throws -> [RoomID]
    /// Applies `change` to the account and appends `entry` to the audit log, in one transaction; `false`, with
    /// nothing changed or logged, when it would leave the server without an active administrator. Deactivating
    /// revokes every token of the account.
    func apply(_ change: AdministrativeChange, to id: UUID, audit entry: AuditEntry) async throws -> Bool

    func storeToken(hash: String, userID: UUID, expiresAt: Date) async throws
    /// The owner and expiry of an unexpired, unrevoked token, read together: every request and connection asks.
    func grant(forTokenHash hash: String, now: Date) async throws -> TokenGrant?
    func revokeToken(hash: String) async throws
    /// When the user was last connected (set when they go offline), or `nil` if never.
    func lastSeen(_ id: UUID) async throws -> Date?
    func setLastSeen(_ id: UUID, at date: Date) async throws
}

/// What a valid bearer token grants: whose account it is, as stored now, and until when.
public struct TokenGrant: Sendable, Equatable {
    public let account: Account
    public let expiresAt: Date

    public init(account: Account, expiresAt: Date) {
        self.account = account
        self.expiresAt = expiresAt
    }
}

/// What an administrator changes about an account.
public enum AdministrativeChange: Sendable, Equatable {
    case grantAdministrator
    case revokeAdministrator
    case deactivate(at: Date)
    case reactivate

    /// Whether the change can take the last active administrator away.
    public var removesAnAdministrator: Bool {
        switch self {
        case .revokeAdministrator, .deactivate: true
        case .grantAdministrator, .reactivate: false
        }
    }
}

extension Account {
    /// The account as the sender of what it does in a room.
    public var sender: Sender { Sender(name: self.username, id: self.id) }
}
