import ChatCore
import ChatProtocol
import Foundation

/// Bots (PROTOCOL.md §9.13): accounts a person makes for a program, signed in with a token that does not expire.
/// A bot is a member like anyone (invited to rooms, counted, mentioned), sends over the socket or
/// `POST /rooms/{id}/messages`, and is marked `"bot": true` in its profile. Only its owner manages it.
public struct Bots: Sendable {
    let store: any BotStore
    let accounts: any AccountStore
    let hub: Hub
    let sessions: any LiveSessions
    /// A digest of a password no one knows: a bot never signs in with one.
    let unusableDigest: String
    /// Where outgoing webhooks may point.
    let policy: OutboundPolicy
    /// Told when a webhook is set (``OutgoingWebhooks/webhookSet()``).
    let webhookSet: @Sendable () -> Void

    public init(
        store: any BotStore, accounts: any AccountStore, hub: Hub, sessions: any LiveSessions, unusableDigest: String,
        policy: OutboundPolicy, webhookSet: @escaping @Sendable () -> Void
    ) {
        self.webhookSet = webhookSet
        self.store = store
        self.accounts = accounts
        self.hub = hub
        self.sessions = sessions
        self.unusableDigest = unusableDigest
        self.policy = policy
    }

    /// The longest webhook URL kept.
    public static let maxURLBytes = 1024
    /// Deliveries kept per bot.
    public static let keptDeliveries = 50

    /// Sets my bot's outgoing webhook (a new signing key each time), or removes it with `nil`.
    public func setWebhook(_ request: BotWebhookRequest, of id: UUID?, by owner: Account) async throws
        -> BotWebhookPayload
    {
        let bot = try await self.ownedBot(id, by: owner)
        var webhook: BotWebhook?
        if let raw = request.webhookURL {
            guard raw.utf8.count <= Self.maxURLBytes, let url = URL(string: raw), self.policy.allows(url) else {
                throw Refusal.invalid(
                    .invalidEndpoint,
                    "A webhook URL is https on a public address (or one --outbound-allow names), at most \(Self.maxURLBytes) bytes."
                )
            }
            webhook = BotWebhook(bot: bot.id, username: bot.username, url: raw, secret: BearerToken.generate())
        }
        try await StoreUnavailable.guarding("the webhook could not be saved") {
            try await self.store.setWebhook(of: bot.id, to: webhook)
        }
        if webhook != nil { self.webhookSet() }
        return BotWebhookPayload(
            id: bot.id, username: bot.username, webhookURL: webhook?.url, webhookSecret: webhook?.secret)
    }

    /// What became of the newest messages sent to my bot's webhook.
    public func deliveries(of id: UUID?, by owner: Account) async throws -> BotDeliveryList {
        let bot = try await self.ownedBot(id, by: owner)
        return try await StoreUnavailable.guarding("the deliveries could not be read") {
            BotDeliveryList(
                deliveries: try await self.store.deliveries(of: bot.id, limit: Self.keptDeliveries).map {
                    BotDeliveryPayload(
                        room: $0.room.rawValue, seq: $0.seq, status: $0.status, outcome: $0.outcome,
                        date: $0.date.milliseconds)
                })
        }
    }

    /// Active bots one account may have.
    public static let limit = 25

    static let unknownBot = Refusal(kind: .notFound, code: .unknownBot, message: "You have no such bot.")

    /// A new bot owned by `owner`, and its token, shown this once.
    public func create(_ request: BotCreateRequest, by owner: Account) async throws -> BotTokenPayload {
        guard !owner.isBot else {
            throw Refusal(kind: .notAllowed, code: .notAllowed, message: "A bot cannot make bots.")
        }
        guard AccountRules.isValidUsername(request.username) else { throw Accounts.invalidUsername }
        var displayName = request.username
        if let raw = request.displayName {
            guard let name = AccountRules.normalizedDisplayName(raw) else { throw Accounts.invalidDisplayName }
            displayName = name
        }
        guard !AccountRules.isReserved(request.username) else { throw Accounts.usernameTaken }
        let bot = Account(
            id: UUID(), username: request.username, displayName: displayName,
            avatarColor: AccountRules.defaultColor(for: request.username), passwordHash: self.unusableDigest,
            isBot: true, botOwner: owner.id)
        let token = BearerToken.generate()
        let creation = try await StoreUnavailable.guarding("the bot could not be created") {
            try await self.store.create(bot, tokenHash: BearerToken.hash(token), limit: Self.limit)
        }
        switch creation {
        case .created: return BotTokenPayload(id: bot.id, username: bot.username, token: token)
        case .usernameTaken: throw Accounts.usernameTaken
        case .tooMany:
            throw Refusal(
                kind: .conflict, code: .tooManyBots, message: "You have \(Self.limit) bots already: delete one first.")
        }
    }

    /// My active bots, by username.
    public func list(for owner: UUID) async throws -> BotList {
        try await StoreUnavailable.guarding("the bots could not be read") {
            BotList(bots: try await self.store.bots(ownedBy: owner).map(\.profile))
        }
    }

    /// A new token for my bot; the old one stops working at once, and the sockets opened with it are closed.
    public func newToken(for id: UUID?, by owner: Account) async throws -> BotTokenPayload {
        let bot = try await self.ownedBot(id, by: owner)
        let token = BearerToken.generate()
        try await StoreUnavailable.guarding("the token could not be replaced") {
            try await self.store.replaceTokens(of: bot.id, with: BearerToken.hash(token))
        }
        self.sessions.closeAll(account: bot.id)
        return BotTokenPayload(id: bot.id, username: bot.username, token: token)
    }

    /// Deletes my bot: its token stops working, its sockets close (4003), it leaves every room but its direct
    /// rooms, and its name stays taken, so no one else can post as it. What it sent stays, under its name.
    public func delete(_ id: UUID?, by owner: Account, from address: String) async throws {
        let bot = try await self.ownedBot(id, by: owner)
        try await self.retire(bot, by: .account(owner, from: address))
    }

    /// Deletes every bot of `owner`, as ``delete(_:by:from:)`` does one: when the owner's account is deleted, no one
    /// is left to manage them.
    public func deleteAll(ownedBy owner: UUID, by actor: Administration.Actor) async throws {
        let bots = try await StoreUnavailable.guarding("the bots could not be read") {
            try await self.store.bots(ownedBy: owner)
        }
        for bot in bots { try await self.retire(bot, by: actor) }
    }

    private func retire(_ bot: Account, by actor: Administration.Actor) async throws {
        let entry = AuditEntry(
            actor: actor.id, actorName: actor.name, action: "delete-bot", target: bot.id.uuidString,
            detail: bot.username, address: actor.address, date: Date())
        let left = try await StoreUnavailable.guarding("the bot could not be deleted") {
            try await self.store.retire(bot.id, at: entry.date, audit: entry)
        }
        self.sessions.closeAll(deactivated: bot.id)
        for room in left {
            try await self.hub.room(room).evict(bot.id)
            await self.sessions.left(bot.id, room: room)
        }
    }

    /// The active bot `id` of `owner`; anyone else's bot, or none, is `unknown_bot`.
    private func ownedBot(_ id: UUID?, by owner: Account) async throws -> Account {
        guard let id else { throw Self.unknownBot }
        let bot = try await StoreUnavailable.guarding("the bot could not be read") {
            try await self.accounts.account(id: id)
        }
        guard let bot, bot.isBot, bot.botOwner == owner.id, bot.deactivatedAt == nil else { throw Self.unknownBot }
        return bot
    }
}
