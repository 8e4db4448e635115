import Foundation

/// Durable storage of bots (PROTOCOL.md §9.13): accounts made by another account, which signs them in with tokens
/// that do not expire.
public protocol BotStore: Sendable {
    /// Stores the bot `bot` (whose ``Account/botOwner`` is set) with its first token, in one transaction, unless its
    /// owner already has `limit` active bots or the username is taken.
    func create(_ bot: Account, tokenHash: String, limit: Int) async throws -> BotCreation
    /// The active bots `owner` made, by username.
    func bots(ownedBy owner: UUID) async throws -> [Account]
    /// Revokes every token of `bot` and stores `hash` as its only one, in one transaction.
    func replaceTokens(of bot: UUID, with hash: String) async throws
    /// Deactivates `bot` for good, in one transaction: its tokens revoked, every room left but its direct rooms
    /// (which stay for the other person), `entry` appended to the audit log. Its messages stay, under its name.
    /// Returns the rooms it left.
    func retire(_ bot: UUID, at date: Date, audit entry: AuditEntry) async throws -> [RoomID]
}

/// What ``BotStore/create(_:tokenHash:limit:)`` did.
public enum BotCreation: Sendable, Equatable {
    case created
    case usernameTaken
    case tooMany
}

/// How long a bot's token lasts: it does not expire, but works until it is replaced or the bot is deleted.
public enum BotTokens {
    public static let expiry = Date(timeIntervalSince1970: 253_402_300_799)  // 9999-12-31T23:59:59Z
}
