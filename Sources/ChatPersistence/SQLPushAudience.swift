import ChatCore
import ChatProtocol
import Foundation
import SQLKit

/// ``PushAudience`` in SQL, the same on SQLite and PostgreSQL: the subscriptions joined to the room's memberships.
public struct SQLPushAudience: PushAudience {
    private let sql: any SQLDatabase

    public init(sql: any SQLDatabase) {
        self.sql = sql
    }

    public func anySubscriptions() async throws -> Bool {
        try await self.sql.raw("SELECT 1 AS one FROM push_subscriptions LIMIT 1").first() != nil
    }

    public func recipients(in room: RoomID, except sender: UUID) async throws -> [PushRecipient] {
        try await self.sql.raw(
            """
            SELECT s.user_id AS user_id, s.endpoint AS endpoint, s.p256dh AS p256dh, s.auth AS auth,
            m.notification_level AS level
            FROM push_subscriptions s JOIN memberships m ON m.user_id = s.user_id
            WHERE m.room_id = \(bind: room.rawValue) AND s.user_id <> \(bind: sender)
            """
        ).all().map { row in
            PushRecipient(
                subscription: PushSubscription(
                    account: try row.decode(column: "user_id", as: UUID.self),
                    endpoint: try row.decode(column: "endpoint", as: String.self),
                    p256dh: try row.decode(column: "p256dh", as: String.self),
                    auth: try row.decode(column: "auth", as: String.self)),
                level: try row.decode(column: "level", as: String?.self).flatMap(NotificationLevel.init(rawValue:)))
        }
    }
}
