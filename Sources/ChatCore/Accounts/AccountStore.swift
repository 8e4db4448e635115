import Foundation

/// A registered user, as stored.
public struct Account: Sendable, Equatable {
    public var id: UUID
    public var username: String
    public var displayName: String
    public var avatarColor: String
    /// A bcrypt digest; the password itself is never stored.
    public var passwordHash: String

    public init(id: UUID, username: String, displayName: String, avatarColor: String, passwordHash: String) {
        self.id = id
        self.username = username
        self.displayName = displayName
        self.avatarColor = avatarColor
        self.passwordHash = passwordHash
    }
}

/// Durable storage of accounts and their bearer tokens. Tokens are stored only as hashes.
public protocol AccountStore: Sendable {
    /// Stores a new account; `false` when the username is taken (compared without case).
    func create(_ account: Account) async throws -> Bool
    func account(username: String) async throws -> Account?
    func account(id: UUID) async throws -> Account?
    /// The accounts with these ids, by username, at most `limit`.
    func accounts(ids: [UUID], limit: Int) async throws -> [Account]
    /// Saves a changed display name or colour.
    func update(_ account: Account) async throws
    /// Replaces an account's password digest and revokes every token it holds, in one transaction: whoever knew
    /// the old password is signed out everywhere.
    func resetPassword(of id: UUID, toHash hash: String) async throws
    /// Accounts whose username or display name contains `query` (without case), by username.
    func search(_ query: String, limit: Int) async throws -> [Account]

    func storeToken(hash: String, userID: UUID, expiresAt: Date) async throws
    /// The owner and expiry of an unexpired, unrevoked token.
    func grant(forTokenHash hash: String, now: Date) async throws -> TokenGrant?
    func revokeToken(hash: String) async throws
    /// When the user was last connected (set when they go offline), or `nil` if never.
    func lastSeen(_ id: UUID) async throws -> Date?
    func setLastSeen(_ id: UUID, at date: Date) async throws
}

/// What a valid bearer token grants: whose it is, and until when.
public struct TokenGrant: Sendable, Equatable {
    public let userID: UUID
    public let expiresAt: Date

    public init(userID: UUID, expiresAt: Date) {
        self.userID = userID
        self.expiresAt = expiresAt
    }
}
