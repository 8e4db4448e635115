import ChatCore
import ChatProtocol
import Foundation
import SQLKit

/// ``AgedMessages`` in SQL, the same on SQLite and PostgreSQL. It reads `created_at`, which no index serves: the
/// retention sweep runs once an hour, and each run reads the table once per page of what it deletes.
public struct SQLAgedMessages: AgedMessages {
    private let sql: any SQLDatabase

    public init(sql: any SQLDatabase) {
        self.sql = sql
    }

    public func messages(olderThan date: Date, limit: Int) async throws -> [(room: RoomID, seq: Int64)] {
        try await self.sql.select().columns("room", "seq").from(MessageRecord.schema)
            .where("created_at", .lessThan, date)
            .where("kind", .equal, EventKind.message.rawValue)
            .where("deleted", .equal, false)
            .orderBy("created_at").limit(limit).all()
            .map {
                (RoomID(try $0.decode(column: "room", as: String.self)), try $0.decode(column: "seq", as: Int64.self))
            }
    }
}
