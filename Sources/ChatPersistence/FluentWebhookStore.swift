import ChatCore
import FluentKit
import Foundation

/// The ``WebhookStore`` on a Fluent database.
public struct FluentWebhookStore: WebhookStore {
    private let database: any Database

    public init(database: any Database) {
        self.database = database
    }

    public func create(_ webhook: IncomingWebhook, secretHash: String) async throws {
        try await WebhookRecord(webhook, secretHash: secretHash).create(on: self.database)
    }

    public func webhooks(in room: RoomID) async throws -> [IncomingWebhook] {
        try await WebhookRecord.query(on: self.database).filter(\.$roomID == room.rawValue).sort(\.$createdAt).all()
            .map { try $0.webhook }
    }

    public func webhook(secretHash: String) async throws -> IncomingWebhook? {
        try await WebhookRecord.query(on: self.database).filter(\.$secretHash == secretHash).first()?.webhook
    }

    public func delete(_ id: UUID, in room: RoomID) async throws -> Bool {
        let query = WebhookRecord.query(on: self.database).filter(\.$id == id).filter(\.$roomID == room.rawValue)
        guard try await query.count() > 0 else { return false }
        try await query.delete()
        return true
    }
}
