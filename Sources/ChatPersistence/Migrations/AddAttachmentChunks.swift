import FluentKit
import SQLKit

/// Adds, on PostgreSQL, `attachment_chunks`: the bytes of each attachment content (by SHA-256) in chunks, for
/// `--attachments-store postgres`, where nodes share no directory. A content's chunks are written in one
/// transaction, so a content is in the table whole or not at all. SQLite keeps its files in a directory.
struct AddAttachmentChunks: AsyncMigration {
    func prepare(on database: any Database) async throws {
        guard let sql = database.sql(ifDialect: "postgresql") else { return }
        try await sql.raw(
            """
            CREATE TABLE attachment_chunks (
                sha256 TEXT NOT NULL, chunk INTEGER NOT NULL, bytes BYTEA NOT NULL, PRIMARY KEY (sha256, chunk))
            """
        ).run()
    }

    func revert(on database: any Database) async throws {
        guard let sql = database.sql(ifDialect: "postgresql") else { return }
        try await sql.raw("DROP TABLE attachment_chunks").run()
    }
}
