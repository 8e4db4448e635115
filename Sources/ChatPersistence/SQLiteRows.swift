import NIOConcurrencyHelpers
import SQLKit
import SQLiteKit
import SQLiteNIO

/// Reads a query's rows from SQLite on its thread, all at once. *Why:* Fluent's SQLite database runs every query
/// through SQLiteNIO's futures-based call, which hands each row to the event loop as a task of its own: a page of
/// 1,000 events was 1,000 task switches, the largest cost of a resume after SQLite itself (BENCHMARKS.md, "How cost
/// grows with work"). A connection's own `async` query calls back on SQLite's thread instead, and the rows come
/// back in one piece.
struct SQLiteRows: Sendable {
    /// Fluent's SQLite database (its pool of read connections).
    let database: any SQLiteDatabase
    /// The same database as SQLKit sees it, which turns a query into SQL text and binds.
    let sql: any SQLDatabase

    /// `database` when it is SQLite, else `nil`.
    init?(_ sql: any SQLDatabase) {
        guard sql.dialect.name == "sqlite", let database = sql as? any SQLiteDatabase else { return nil }
        self.database = database
        self.sql = sql
    }

    /// Every row of `query`.
    func all(_ query: any SQLExpression) async throws -> [SQLiteRow] {
        let (text, values) = self.sql.serialize(query)
        let encoder = SQLiteDataEncoder()
        let binds = try values.map { try encoder.encode($0) }
        return try await self.database.withConnection { connection in
            let rows = NIOLockedValueBox<[SQLiteRow]>([])
            try await connection.query(text, binds) { row in rows.withLockedValue { $0.append(row) } }
            return rows.withLockedValue { $0 }
        }
    }
}
