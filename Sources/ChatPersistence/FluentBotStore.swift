import ChatCore
import FluentKit
import Foundation

/// The ``BotStore`` on a Fluent database: bots are rows of `users`, their tokens rows of `tokens`.
public struct FluentBotStore: BotStore {
    private let database: any Database

    public init(database: any Database) {
        self.database = database
    }

    public func create(_ bot: Account, tokenHash: String, limit: Int) async throws -> BotCreation {
        /// Rolls the transaction back: the owner has as many bots as allowed.
        struct TooMany: Error {}
        do {
            try await self.database.writeTransaction { database in
                // The insert comes first: on PostgreSQL the owner's bots are counted after it, so two creations at
                // once both count each other and at most one goes over.
                try await UserRecord(bot).create(on: database)
                let owned = try await Self.active(ownedBy: bot.botOwner, on: database).count()
                guard owned <= limit else { throw TooMany() }
                try await TokenRecord(tokenHash: tokenHash, userID: bot.id, expiresAt: BotTokens.expiry)
                    .create(on: database)
            }
            return .created
        } catch is TooMany {
            return .tooMany
        } catch let error as any DatabaseError where error.isConstraintFailure {
            return .usernameTaken
        }
    }

    public func bots(ownedBy owner: UUID) async throws -> [Account] {
        try await Self.active(ownedBy: owner, on: self.database).sort(\.$usernameKey).all().map { try $0.account() }
    }

    public func replaceTokens(of bot: UUID, with hash: String) async throws {
        try await self.database.writeTransaction { database in
            try await TokenRecord.query(on: database).filter(\.$userID == bot).delete()
            try await TokenRecord(tokenHash: hash, userID: bot, expiresAt: BotTokens.expiry).create(on: database)
        }
    }

    public func retire(_ bot: UUID, at date: Date, audit entry: AuditEntry) async throws -> [RoomID] {
        try await self.database.writeTransaction { database in
            try await UserRecord.query(on: database).filter(\.$id == bot).set(\.$deactivatedAt, to: date).update()
            try await TokenRecord.query(on: database).filter(\.$userID == bot).delete()
            let left = try await FluentAccountStore.leaveAllButDirectRooms(bot, on: database)
            try await AuditRecord(entry).create(on: database)
            return left
        }
    }

    public func setWebhook(of bot: UUID, to webhook: BotWebhook?) async throws {
        try await self.database.writeTransaction { database in
            try await BotWebhookRecord.query(on: database).filter(\.$id == bot).delete()
            if let webhook { try await BotWebhookRecord(webhook).create(on: database) }
        }
    }

    public func webhooks(of accounts: [UUID]) async throws -> [BotWebhook] {
        guard !accounts.isEmpty else { return [] }
        let hooks = try await BotWebhookRecord.query(on: self.database).filter(\.$id ~~ accounts).all()
        guard !hooks.isEmpty else { return [] }
        let bots = try await UserRecord.query(on: self.database).filter(\.$id ~~ hooks.compactMap(\.id))
            .filter(\.$isBot == true).filter(\.$deactivatedAt == nil).all()
        let names = Dictionary(uniqueKeysWithValues: try bots.map { (try $0.requireID(), $0.username) })
        return hooks.compactMap { hook in
            guard let bot = hook.id, let name = names[bot] else { return nil }
            return BotWebhook(bot: bot, username: name, url: hook.url, secret: hook.secret)
        }
    }

    public func anyWebhook() async throws -> Bool {
        try await BotWebhookRecord.query(on: self.database).first() != nil
    }

    public func record(_ delivery: BotDelivery, keep: Int) async throws {
        try await self.database.writeTransaction { database in
            try await BotDeliveryRecord(delivery).create(on: database)
            let kept = try await BotDeliveryRecord.query(on: database).filter(\.$bot == delivery.bot)
                .sort(\.$id, .descending).offset(keep).first()
            if let oldest = kept?.id {
                try await BotDeliveryRecord.query(on: database).filter(\.$bot == delivery.bot)
                    .filter(\.$id <= oldest).delete()
            }
        }
    }

    public func deliveries(of bot: UUID, limit: Int) async throws -> [BotDelivery] {
        try await BotDeliveryRecord.query(on: self.database).filter(\.$bot == bot).sort(\.$id, .descending)
            .limit(limit).all().map(\.delivery)
    }

    private static func active(ownedBy owner: UUID?, on database: any Database) -> QueryBuilder<UserRecord> {
        UserRecord.query(on: database).filter(\.$botOwner == owner).filter(\.$isBot == true)
            .filter(\.$deactivatedAt == nil)
    }
}
