import FluentKit

/// The two databases a store test runs on, by the name its arguments give them.
enum MigratedDatabase {
    static let names = ["SQLite", "PostgreSQL"]

    /// A new, migrated database of that name, and what closes it.
    static func open(_ name: String) async throws -> (any Database, @Sendable () async -> Void) {
        if name == "SQLite" {
            let file = try await MigratedSQLiteFile.open()
            return (file.database, file.close)
        }
        let database = try await MigratedPostgresDatabase.open()
        return (database.database, database.close)
    }
}
