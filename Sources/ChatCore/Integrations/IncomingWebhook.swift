import Foundation

/// An incoming webhook of a room (PROTOCOL.md §9.14): whoever knows its secret URL posts messages there, shown under
/// its name. Only the secret's hash is stored.
public struct IncomingWebhook: Sendable, Equatable {
    public var id: UUID
    public var room: RoomID
    public var name: String
    /// The owner or moderator who made it.
    public var createdBy: UUID
    public var createdAt: Date

    public init(id: UUID, room: RoomID, name: String, createdBy: UUID, createdAt: Date) {
        self.id = id
        self.room = room
        self.name = name
        self.createdBy = createdBy
        self.createdAt = createdAt
    }

    /// The sender of what it posts: no account, the webhook's id and name.
    public var sender: Sender { Sender(name: self.name, id: self.id, via: .webhook) }
}

/// Durable storage of incoming webhooks.
public protocol WebhookStore: Sendable {
    /// Stores `webhook`, reached by the secret whose hash is `secretHash`.
    func create(_ webhook: IncomingWebhook, secretHash: String) async throws
    /// A room's webhooks, oldest first.
    func webhooks(in room: RoomID) async throws -> [IncomingWebhook]
    /// The webhook the secret whose hash is `secretHash` reaches, if any.
    func webhook(secretHash: String) async throws -> IncomingWebhook?
    /// Deletes the webhook `id` of `room`; `false` when the room has none such.
    func delete(_ id: UUID, in room: RoomID) async throws -> Bool
}
