import ChatPersistence
import ChatServer

extension TestServer {
    /// Makes the server's database fail for whatever reads or writes `tables`: each is renamed away, as a bad manual
    /// change to the database would leave it, on SQLite and PostgreSQL alike. ``repairTables(_:)`` renames them
    /// back.
    public func breakTables(_ tables: [String]) async throws {
        for table in tables { try await self.executeOnDatabase("ALTER TABLE \(table) RENAME TO \(table)_away") }
    }

    public func repairTables(_ tables: [String]) async throws {
        for table in tables { try await self.executeOnDatabase("ALTER TABLE \(table)_away RENAME TO \(table)") }
    }

    /// Runs one statement on the server's own database from a connection of the test's.
    public func executeOnDatabase(_ sql: String) async throws {
        if let url = self.configuration.databaseURL {
            try await TestPostgres.shared().psql(sql, database: url.database)
            return
        }
        try await SQLiteStatement.run(sql, inDataDirectory: self.configuration.dataDirectory)
    }
}
