import ChatCore
import FluentKit
import Foundation

/// A row of `incoming_webhooks`: a room's webhook and the SHA-256 of its secret, never the secret.
final class WebhookRecord: Model, @unchecked Sendable {
    static let schema = "incoming_webhooks"

    @ID(key: .id) var id: UUID?
    @Field(key: "room_id") var roomID: String
    @Field(key: "name") var name: String
    @Field(key: "secret_hash") var secretHash: String
    @Field(key: "created_by") var createdBy: UUID
    @Field(key: "created_at") var createdAt: Date

    init() {}

    init(_ webhook: IncomingWebhook, secretHash: String) {
        self.id = webhook.id
        self.roomID = webhook.room.rawValue
        self.name = webhook.name
        self.secretHash = secretHash
        self.createdBy = webhook.createdBy
        self.createdAt = webhook.createdAt
    }

    var webhook: IncomingWebhook {
        get throws {
            IncomingWebhook(
                id: try self.requireID(), room: RoomID(self.roomID), name: self.name, createdBy: self.createdBy,
                createdAt: self.createdAt)
        }
    }
}
