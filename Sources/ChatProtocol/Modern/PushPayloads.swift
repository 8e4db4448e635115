/// `GET /api/v1/push/key`: the server's VAPID public key, the `applicationServerKey` a browser subscribes with.
public struct PushKeyPayload: Codable, Sendable, Equatable {
    /// The uncompressed P-256 point, base64url.
    public var publicKey: String

    public init(publicKey: String) {
        self.publicKey = publicKey
    }
}

/// `POST /api/v1/push/subscriptions`: a browser's `PushSubscription` as `toJSON()` writes it.
public struct PushSubscriptionRequest: Codable, Sendable, Equatable {
    public struct Keys: Codable, Sendable, Equatable {
        public var p256dh: String
        public var auth: String

        public init(p256dh: String, auth: String) {
            self.p256dh = p256dh
            self.auth = auth
        }
    }

    public var endpoint: String
    public var keys: Keys

    public init(endpoint: String, keys: Keys) {
        self.endpoint = endpoint
        self.keys = keys
    }
}

/// `DELETE /api/v1/push/subscriptions`.
public struct PushUnsubscribeRequest: Codable, Sendable, Equatable {
    public var endpoint: String

    public init(endpoint: String) {
        self.endpoint = endpoint
    }
}
