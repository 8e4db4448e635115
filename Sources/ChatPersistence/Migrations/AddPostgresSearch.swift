import FluentKit
import SQLKit

/// Adds PostgreSQL's search index (``PostgresWordIndex``), as ``AddRichEvents`` adds SQLite's FTS5 index.
struct AddPostgresSearch: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await Self.run(PostgresWordIndex.schema, on: database)
    }

    func revert(on database: any Database) async throws {
        try await Self.run(PostgresWordIndex.dropSchema, on: database)
    }

    private static func run(_ statements: [String], on database: any Database) async throws {
        guard let sql = database.sql(ifDialect: "postgresql") else { return }
        for statement in statements {
            try await sql.raw(SQLQueryString(statement)).run()
        }
    }
}
