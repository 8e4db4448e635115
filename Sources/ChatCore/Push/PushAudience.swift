import Foundation

/// A message for one subscription: the JSON the service worker reads, and how the push service should treat it.
public struct PushMessage: Sendable {
    public var payload: Data
    /// Seconds the push service keeps it for a device that is offline.
    public var ttl: Int
    /// `high` wakes a phone now (direct messages, mentions); `normal` otherwise.
    public var urgent: Bool
    /// A newer message of the same topic replaces an undelivered older one (one per room).
    public var topic: String?

    public init(payload: Data, ttl: Int = 24 * 3600, urgent: Bool, topic: String?) {
        self.payload = payload
        self.ttl = ttl
        self.urgent = urgent
        self.topic = topic
    }
}

/// What sends push messages (the server's `WebPushSender`): returns at once, delivery is its business.
public protocol PushSending: Sendable {
    func send(_ message: PushMessage, to subscription: PushSubscription) async
}

/// A member of a room who could be notified: a subscription of theirs, and their notification level there.
public struct PushRecipient: Sendable, Equatable {
    public var subscription: PushSubscription
    /// `nil`: the default of the room's kind.
    public var level: NotificationLevel?

    public init(subscription: PushSubscription, level: NotificationLevel?) {
        self.subscription = subscription
        self.level = level
    }
}

/// Who in a room has push subscriptions: one query per message, asked off the path of the message.
public protocol PushAudience: Sendable {
    /// Whether any account has a subscription at all: while none does, messages cost nothing more.
    func anySubscriptions() async throws -> Bool
    /// The subscriptions of the room's members other than `sender`, with each member's level.
    func recipients(in room: RoomID, except sender: UUID) async throws -> [PushRecipient]
}
