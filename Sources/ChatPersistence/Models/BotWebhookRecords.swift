import ChatCore
import FluentKit
import Foundation

/// A row of `bot_webhooks`: a bot's outgoing webhook and its signing key.
final class BotWebhookRecord: Model, @unchecked Sendable {
    static let schema = "bot_webhooks"

    @ID(custom: "bot_id", generatedBy: .user) var id: UUID?
    @Field(key: "url") var url: String
    @Field(key: "secret") var secret: String

    init() {}

    init(_ webhook: BotWebhook) {
        self.id = webhook.bot
        self.url = webhook.url
        self.secret = webhook.secret
    }
}

/// A row of `bot_deliveries`: what became of one message sent to a bot's webhook.
final class BotDeliveryRecord: Model, @unchecked Sendable {
    static let schema = "bot_deliveries"

    @ID(custom: "id", generatedBy: .database) var id: Int64?
    @Field(key: "bot_id") var bot: UUID
    @Field(key: "room") var room: String
    @Field(key: "seq") var seq: Int64
    @OptionalField(key: "status") var status: Int?
    @Field(key: "outcome") var outcome: String
    @Field(key: "created_at") var createdAt: Date

    init() {}

    init(_ delivery: BotDelivery) {
        self.bot = delivery.bot
        self.room = delivery.room.rawValue
        self.seq = delivery.seq
        self.status = delivery.status
        self.outcome = delivery.outcome
        self.createdAt = delivery.date
    }

    var delivery: BotDelivery {
        BotDelivery(
            bot: self.bot, room: RoomID(self.room), seq: self.seq, status: self.status, outcome: self.outcome,
            date: self.createdAt)
    }
}
