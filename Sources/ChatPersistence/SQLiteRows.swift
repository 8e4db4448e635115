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
    /// Fluent's SQLite database: the pool of its event loop (one connection), as the reads used before.
    let database: any SQLiteDatabase
    /// The same database as SQLiteKit sees it, which turns a query into SQL text and binds. Made once: Fluent's
    /// handle makes a new one each time its dialect is read, once per bind when serializing.
    let sql: any SQLDatabase
    /// How binds become SQLite values: SQLiteKit's default encoder, the one Fluent's database is opened with
    /// (`SQLiteStorage`) and the writer binds with.
    let encoder = SQLiteDataEncoder()

    /// `database` when it is SQLite, else `nil`.
    init?(_ sql: any SQLDatabase) {
        guard sql.dialect.name == "sqlite", let database = sql as? any SQLiteDatabase else { return nil }
        self.database = database
        self.sql = database.sql(encoder: self.encoder)
    }

    /// Every row of `query`.
    func all(_ query: any SQLExpression) async throws -> [SQLiteRow] {
        let (text, values) = self.sql.serialize(query)
        let binds = try values.map { try self.encoder.encode($0) }
        return try await self.database.withConnection { connection in
            let rows = NIOLockedValueBox<[SQLiteRow]>([])
            try await connection.query(text, binds) { row in rows.withLockedValue { $0.append(row) } }
            return rows.withLockedValue { $0 }
        }
    }
}
