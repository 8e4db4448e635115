import Logging
import PostgresNIO

extension PostgresConnection {
    /// Runs a prepared statement and returns its rows.
    ///
    /// PostgresNIO remembers a statement whose preparation failed and answers every later run of it on the same
    /// connection with that first error, even once its cause is gone: a table renamed back, a column a migration
    /// adds. So when the statement fails for its schema (SQLSTATE class 42: no such table or column, no privilege),
    /// the connection is closed and the pool opens a fresh one, where the statement is prepared anew: the server
    /// recovers with the database instead of failing on that connection until it restarts.
    func rows<Statement: PostgresPreparedStatement>(_ statement: Statement, logger: Logger) async throws
        -> [Statement.Row]
    {
        do {
            var rows: [Statement.Row] = []
            for try await row in try await self.execute(statement, logger: logger) { rows.append(row) }
            return rows
        } catch let error as PSQLError where error.serverInfo?[.sqlState]?.hasPrefix("42") == true {
            logger.warning(
                "closing a database connection whose prepared statement failed for its schema",
                metadata: ["error": "\(String(reflecting: error))"])
            try? await self.close()
            throw error
        }
    }
}
