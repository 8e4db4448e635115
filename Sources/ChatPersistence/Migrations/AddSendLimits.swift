import FluentKit
import SQLKit

/// Adds `send_limits` on PostgreSQL: per account, when its send bucket is full again, shared by every node
/// (``PostgresSenderChecks``). One node keeps its limiter in memory, so SQLite gets no such table.
struct AddSendLimits: AsyncMigration {
    func prepare(on database: any Database) async throws {
        guard let sql = database.sql(ifDialect: "postgresql") else { return }
        try await sql.raw("CREATE TABLE send_limits (account UUID PRIMARY KEY, full_again TIMESTAMPTZ NOT NULL)").run()
    }

    func revert(on database: any Database) async throws {
        guard let sql = database.sql(ifDialect: "postgresql") else { return }
        try await sql.raw("DROP TABLE send_limits").run()
    }
}
