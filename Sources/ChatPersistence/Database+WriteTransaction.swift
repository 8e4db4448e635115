import FluentKit
import SQLKit

extension Database {
    /// Fluent's `transaction`, holding SQLite's write lock from its start: every store's transaction goes through
    /// here.
    ///
    /// Fluent opens SQLite's transactions with a plain `BEGIN`, which takes the lock only at the first write. In
    /// WAL mode a transaction that has read and then writes fails at once (`SQLITE_BUSY_SNAPSHOT`, which no busy
    /// wait resolves) when another connection (the message writer, mostly) committed in between. `BEGIN IMMEDIATE`
    /// waits for the lock before reading anything, so the transaction's reads and writes see one state of the
    /// database and its writes cannot be refused. PostgreSQL needs none of this: its transactions are unchanged.
    public func writeTransaction<T: Sendable>(
        _ body: @escaping @Sendable (any Database) async throws -> T
    ) async throws -> T {
        guard !self.inTransaction else { return try await body(self) }
        return try await self.transaction { database in
            if let sql = database.sql(ifDialect: "sqlite") {
                // Fluent's `BEGIN` has read nothing yet: end it and start again, holding the lock.
                try await sql.raw("COMMIT").run()
                try await sql.raw("BEGIN IMMEDIATE").run()
            }
            return try await body(database)
        }
    }
}
