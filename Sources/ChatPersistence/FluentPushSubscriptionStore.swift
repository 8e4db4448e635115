import ChatCore
import FluentKit
import Foundation

/// The ``PushSubscriptionStore`` on a Fluent database.
public struct FluentPushSubscriptionStore: PushSubscriptionStore {
    private let database: any Database

    public init(database: any Database) {
        self.database = database
    }

    public func subscribe(_ subscription: PushSubscription, limit: Int) async throws -> Bool {
        do {
            return try await self.database.writeTransaction { database in
                try await PushSubscriptionRecord.query(on: database)
                    .filter(\.$endpoint == subscription.endpoint).delete()
                let others = try await PushSubscriptionRecord.query(on: database)
                    .filter(\.$userID == subscription.account).count()
                guard others < limit else { throw Refused() }
                try await PushSubscriptionRecord(subscription).create(on: database)
                return true
            }
        } catch is Refused {
            return false
        }
    }

    public func unsubscribe(endpoint: String, of account: UUID) async throws -> Bool {
        let query = PushSubscriptionRecord.query(on: self.database)
            .filter(\.$endpoint == endpoint).filter(\.$userID == account)
        guard try await query.first() != nil else { return false }
        try await PushSubscriptionRecord.query(on: self.database)
            .filter(\.$endpoint == endpoint).filter(\.$userID == account).delete()
        return true
    }

    public func subscriptions(of accounts: [UUID]) async throws -> [PushSubscription] {
        guard !accounts.isEmpty else { return [] }
        return try await PushSubscriptionRecord.query(on: self.database).filter(\.$userID ~~ accounts).all()
            .map(\.subscription)
    }

    public func vapidKey(orMake make: @Sendable () -> Data) async throws -> Data {
        if let stored = try await ServerKeyRecord.find(Self.vapidName, on: self.database) {
            return Data(base64Encoded: stored.value) ?? Data()
        }
        do {
            try await ServerKeyRecord(name: Self.vapidName, value: make().base64EncodedString()).create(
                on: self.database)
        } catch let error as any DatabaseError where error.isConstraintFailure {
            // Another node made it first: theirs is the key.
        }
        guard let stored = try await ServerKeyRecord.find(Self.vapidName, on: self.database) else { return Data() }
        return Data(base64Encoded: stored.value) ?? Data()
    }

    static let vapidName = "vapid"

    /// Rolls the transaction back: the account has enough subscriptions.
    private struct Refused: Error {}
}
