import ChatCore
import ChatProtocol
import Foundation
import SQLKit

/// ``SentMessages`` in SQL, the same on SQLite and PostgreSQL: keyset paging on `(room, seq)`, which the
/// `messages` table's unique index serves.
public struct SQLSentMessages: SentMessages {
    private let sql: any SQLDatabase

    public init(sql: any SQLDatabase) {
        self.sql = sql
    }

    public func messages(sentBy account: UUID, after: (room: RoomID, seq: Int64)?, limit: Int) async throws
        -> [SentMessage]
    {
        let query = self.sql.select()
            .columns("room", "seq", "created_at", "text", "edited_at", "attachments")
            .from(MessageRecord.schema)
            .where("sender_id", .equal, account)
            .where(SQLColumn("sender_via"), .is, SQLLiteral.null)
            .where("kind", .equal, EventKind.message.rawValue)
            .where("deleted", .equal, false)
        if let after {
            query.where { group in
                group.where("room", .greaterThan, after.room.rawValue)
                    .orWhere { same in
                        same.where("room", .equal, after.room.rawValue).where("seq", .greaterThan, after.seq)
                    }
            }
        }
        return try await query.orderBy("room").orderBy("seq").limit(limit).all().map { row in
            let attachments =
                try row.decodeNil(column: "attachments")
                ? []
                : try JSONDecoder().decode(
                    [Attachment].self, from: Data(try row.decode(column: "attachments", as: String.self).utf8))
            return SentMessage(
                room: RoomID(try row.decode(column: "room", as: String.self)),
                seq: try row.decode(column: "seq", as: Int64.self),
                date: try row.decode(column: "created_at", as: Date.self),
                text: try row.decode(column: "text", as: String.self),
                editedAt: try row.decode(column: "edited_at", as: Date?.self), attachments: attachments)
        }
    }
}
