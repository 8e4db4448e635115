import SQLKit

/// Reads a query's rows by column, without Fluent's models, on either database: SQLite's values straight
/// (``SQLiteRows``, ``SQLiteEventColumns``), PostgreSQL's through SQLKit's decoder. *Why:* a Fluent model reads its
/// row through reflection over its property wrappers, and the reads every connection makes (its token and account,
/// its rooms) were a third of a node's time when thousands reconnected together (BENCHMARKS.md "Scale").
struct ColumnRows: Sendable {
    private let sql: any SQLDatabase
    private let sqlite: SQLiteRows?

    init(_ sql: any SQLDatabase) {
        self.sql = sql
        self.sqlite = SQLiteRows(sql)
    }

    /// Every row of `query`, each made into a value by `read`.
    func all<Value>(_ query: SQLQueryString, _ read: (any EventColumns) throws -> Value) async throws -> [Value] {
        if let sqlite = self.sqlite {
            return try await sqlite.all(query).map { try read(SQLiteEventColumns(row: $0)) }
        }
        return try await self.sql.raw(query).all().map { try read(DecodedEventColumns(row: $0)) }
    }
}
