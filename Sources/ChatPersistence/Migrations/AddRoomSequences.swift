import FluentKit
import SQLKit

/// Adds `room_sequences` on PostgreSQL: each room's last `seq`, the row ``PostgresEventWriter`` locks to number a
/// batch in its transaction, filled from the messages already stored. SQLite has one writer, which numbers
/// batches itself (``MessageStore``), so it gets no such table.
struct AddRoomSequences: AsyncMigration {
    func prepare(on database: any Database) async throws {
        guard let sql = database.sql(ifDialect: "postgresql") else { return }
        try await sql.raw("CREATE TABLE room_sequences (room TEXT PRIMARY KEY, last_seq BIGINT NOT NULL)").run()
        try await sql.raw(
            "INSERT INTO room_sequences (room, last_seq) SELECT room, MAX(seq) FROM messages GROUP BY room"
        ).run()
    }

    func revert(on database: any Database) async throws {
        guard let sql = database.sql(ifDialect: "postgresql") else { return }
        try await sql.raw("DROP TABLE room_sequences").run()
    }
}
