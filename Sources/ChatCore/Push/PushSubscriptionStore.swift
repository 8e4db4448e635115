import Foundation

/// A browser's Web Push subscription (PROTOCOL.md §9.11): where to send, and the keys to encrypt with.
public struct PushSubscription: Sendable, Equatable {
    public var account: UUID
    public var endpoint: String
    /// The browser's P-256 public key, uncompressed, base64url.
    public var p256dh: String
    /// The 16-byte authentication secret, base64url.
    public var auth: String

    public init(account: UUID, endpoint: String, p256dh: String, auth: String) {
        self.account = account
        self.endpoint = endpoint
        self.p256dh = p256dh
        self.auth = auth
    }
}

/// Durable storage of push subscriptions, and of the server's VAPID key, which every node signs with.
public protocol PushSubscriptionStore: Sendable {
    /// Stores the subscription (a known endpoint gets the new keys and account); `false`, and nothing stored, when
    /// the account has `limit` other subscriptions already.
    func subscribe(_ subscription: PushSubscription, limit: Int) async throws -> Bool
    /// Forgets the account's subscription of `endpoint`; `false` when there was none.
    func unsubscribe(endpoint: String, of account: UUID) async throws -> Bool
    /// The subscriptions of these accounts.
    func subscriptions(of accounts: [UUID]) async throws -> [PushSubscription]
    /// The server's VAPID private key (raw, 32 bytes), made by `make` the first time any node asks.
    func vapidKey(orMake make: @Sendable () -> Data) async throws -> Data
}
