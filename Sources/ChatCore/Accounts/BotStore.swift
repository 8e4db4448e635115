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

    /// Sets (or with `nil`, removes) the bot's outgoing webhook.
    func setWebhook(of bot: UUID, to webhook: BotWebhook?) async throws
    /// The outgoing webhooks of those of `accounts` that are active bots with one.
    func webhooks(of accounts: [UUID]) async throws -> [BotWebhook]
    /// Whether any bot has an outgoing webhook.
    func anyWebhook() async throws -> Bool
    /// Keeps `delivery`, and only the newest `keep` of its bot's.
    func record(_ delivery: BotDelivery, keep: Int) async throws
    /// The bot's newest deliveries, newest first.
    func deliveries(of bot: UUID, limit: Int) async throws -> [BotDelivery]
}

/// Where the server tells a bot of the messages meant for it (PROTOCOL.md §9.13), and the key it signs them with.
public struct BotWebhook: Sendable, Equatable {
    public var bot: UUID
    public var username: String
    public var url: String
    /// The HMAC-SHA256 key of `X-SwiftChat-Signature`, kept as given to the owner.
    public var secret: String

    public init(bot: UUID, username: String, url: String, secret: String) {
        self.bot = bot
        self.username = username
        self.url = url
        self.secret = secret
    }
}

/// What became of one message sent to a bot's webhook.
public struct BotDelivery: Sendable, Equatable {
    public var bot: UUID
    public var room: RoomID
    public var seq: Int64
    /// The receiver's HTTP status, when it answered.
    public var status: Int?
    /// `replied`, `delivered` (answered without a reply), or `failed: …` with the reason.
    public var outcome: String
    public var date: Date

    public init(bot: UUID, room: RoomID, seq: Int64, status: Int?, outcome: String, date: Date) {
        self.bot = bot
        self.room = room
        self.seq = seq
        self.status = status
        self.outcome = outcome
        self.date = date
    }
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
