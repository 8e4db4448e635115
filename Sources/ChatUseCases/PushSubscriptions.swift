import ChatCore
import ChatProtocol
import Crypto
import Foundation

/// Browsers' Web Push subscriptions (PROTOCOL.md §9.11): each is checked before it is kept, since the server will
/// send requests to its endpoint and encrypt with its keys.
public struct PushSubscriptions: Sendable {
    let store: any PushSubscriptionStore
    let policy: OutboundPolicy
    /// The VAPID public key browsers subscribe with.
    public let publicKey: String
    /// Told when someone subscribes (``PushNotifications/subscribed()``).
    let subscribed: @Sendable () -> Void

    public init(
        store: any PushSubscriptionStore, policy: OutboundPolicy, publicKey: String,
        subscribed: @escaping @Sendable () -> Void
    ) {
        self.store = store
        self.policy = policy
        self.publicKey = publicKey
        self.subscribed = subscribed
    }

    /// Subscriptions one account may hold: a few browsers and phones.
    public static let limit = 10
    /// The longest endpoint kept.
    public static let maxEndpointBytes = 1024

    public func subscribe(_ request: PushSubscriptionRequest, for account: UUID) async throws {
        guard request.endpoint.utf8.count <= Self.maxEndpointBytes, let url = URL(string: request.endpoint),
            self.policy.allows(url)
        else {
            throw Refusal.invalid(
                .invalidEndpoint,
                "An endpoint is an https URL of at most \(Self.maxEndpointBytes) bytes on a public address (or one --outbound-allow names)."
            )
        }
        guard let point = Data(base64URL: request.keys.p256dh), point.count == 65,
            (try? P256.KeyAgreement.PublicKey(x963Representation: point)) != nil
        else {
            throw Refusal.invalid(.invalidKey, "p256dh is a P-256 public key: an uncompressed point, base64url.")
        }
        guard let auth = Data(base64URL: request.keys.auth), auth.count == 16 else {
            throw Refusal.invalid(.invalidKey, "auth is 16 bytes, base64url.")
        }
        let subscription = PushSubscription(
            account: account, endpoint: request.endpoint, p256dh: request.keys.p256dh, auth: request.keys.auth)
        let kept = try await StoreUnavailable.guarding("the subscription could not be saved") {
            try await self.store.subscribe(subscription, limit: Self.limit)
        }
        guard kept else {
            throw Refusal.invalid(
                .tooManySubscriptions, "An account has at most \(Self.limit) subscriptions: remove one first.")
        }
        self.subscribed()
    }

    public func unsubscribe(_ endpoint: String, for account: UUID) async throws {
        let removed = try await StoreUnavailable.guarding("the subscription could not be removed") {
            try await self.store.unsubscribe(endpoint: endpoint, of: account)
        }
        guard removed else {
            throw Refusal(kind: .notFound, code: .notFound, message: "No subscription of yours has that endpoint.")
        }
    }
}
