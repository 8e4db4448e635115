import ChatCore
import FluentKit
import Foundation

/// A row of `push_subscriptions`.
final class PushSubscriptionRecord: Model, @unchecked Sendable {
    static let schema = "push_subscriptions"

    @ID(key: .id) var id: UUID?
    @Field(key: "user_id") var userID: UUID
    @Field(key: "endpoint") var endpoint: String
    @Field(key: "p256dh") var p256dh: String
    @Field(key: "auth") var auth: String
    @Field(key: "created_at") var createdAt: Date

    init() {}

    init(_ subscription: PushSubscription) {
        self.userID = subscription.account
        self.endpoint = subscription.endpoint
        self.p256dh = subscription.p256dh
        self.auth = subscription.auth
        self.createdAt = Date()
    }

    var subscription: PushSubscription {
        PushSubscription(account: self.userID, endpoint: self.endpoint, p256dh: self.p256dh, auth: self.auth)
    }
}

/// A row of `server_keys`: a secret of the server's own, the same for every node.
final class ServerKeyRecord: Model, @unchecked Sendable {
    static let schema = "server_keys"

    @ID(custom: "name", generatedBy: .user) var id: String?
    /// Base64.
    @Field(key: "value") var value: String

    init() {}

    init(name: String, value: String) {
        self.id = name
        self.value = value
    }
}
