import ChatCore
import Foundation
import SQLKit

/// ``MentionedMessages`` in SQL, the same on SQLite and PostgreSQL: the `mentions` rows of the account (and the `@all`
/// ones) in its rooms, by their id, through the `(user_id, id)` index.
public struct SQLMentionedMessages: MentionedMessages {
    private let sql: any SQLDatabase

    public init(sql: any SQLDatabase) {
        self.sql = sql
    }

    public func messages(mentioning user: UUID, before cursor: Int64?, limit: Int) async throws
        -> [(cursor: Int64, message: StoredMessage)]
    {
        let rows = try await self.sql.raw(
            """
            SELECT x.id AS mention_id, m.* FROM mentions x JOIN messages m ON m.room = x.room AND m.seq = x.seq
            WHERE (x.user_id = \(bind: user) OR x.user_id IS NULL)
            AND x.room IN (SELECT room_id FROM memberships WHERE user_id = \(bind: user))
            AND (m.sender_id <> \(bind: user) OR m.sender_via IS NOT NULL)
            AND x.id < \(bind: cursor ?? Int64.max) ORDER BY x.id DESC LIMIT \(bind: limit)
            """
        ).all()
        return try rows.map {
            (try $0.decode(column: "mention_id", as: Int64.self), try MessageRecord.storedMessage(from: $0))
        }
    }
}
