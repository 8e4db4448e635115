import FluentKit
import SQLKit

/// Adds, on PostgreSQL, what nodes share beside the chat itself: `presence`, one row per process and account that
/// process holds a connection of, refreshed while it lives (the server's `PostgresPresence`); `echo_frames`, the
/// `/echo` frames on their way to the other nodes (`PostgresEchoRelay`). One node keeps both in memory, so SQLite
/// gets no such tables.
struct AddNodeSharing: AsyncMigration {
    func prepare(on database: any Database) async throws {
        guard let sql = database.sql(ifDialect: "postgresql") else { return }
        try await sql.raw(
            """
            CREATE TABLE presence (
                instance UUID NOT NULL, account UUID NOT NULL, expires_at TIMESTAMPTZ NOT NULL,
                PRIMARY KEY (account, instance))
            """
        ).run()
        try await sql.raw("CREATE INDEX presence_by_instance ON presence (instance)").run()
        try await sql.raw(
            """
            CREATE TABLE echo_frames (
                id BIGSERIAL PRIMARY KEY, origin UUID NOT NULL, binary_frame BOOLEAN NOT NULL, payload BYTEA NOT NULL,
                created_at TIMESTAMPTZ NOT NULL DEFAULT now())
            """
        ).run()
    }

    func revert(on database: any Database) async throws {
        guard let sql = database.sql(ifDialect: "postgresql") else { return }
        try await sql.raw("DROP TABLE echo_frames").run()
        try await sql.raw("DROP TABLE presence").run()
    }
}
