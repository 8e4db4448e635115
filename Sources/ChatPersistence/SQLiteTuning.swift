import FluentKit
import NIOCore
import SQLKit

/// The SQLite settings the store relies on.
///
/// - WAL lets readers (history) run while a batch is written, and makes a commit one append to the log.
/// - `synchronous=NORMAL` in WAL mode keeps every committed transaction across a crash of the process
///   (SIGKILL included); only a power loss can lose the last few commits. The room already batches messages
///   per transaction, so the fsync `FULL` would add is the cost it would pay per batch; NORMAL is what SQLite
///   recommends for WAL.
public enum SQLiteTuning {
    /// Switches the database file to WAL; persistent, so once at start-up is enough.
    public static func enableWAL(_ database: any Database) async throws {
        guard let sql = database as? any SQLDatabase, sql.dialect.name == "sqlite" else { return }
        try await sql.raw("PRAGMA journal_mode=WAL").run()
    }

    /// Per-connection settings; cheap (no I/O), so applied before each write on whichever pooled connection
    /// serves it.
    static func prepareForWrite(_ database: any Database) -> EventLoopFuture<Void> {
        guard let sql = database as? any SQLDatabase, sql.dialect.name == "sqlite" else {
            return database.eventLoop.makeSucceededVoidFuture()
        }
        return sql.raw("PRAGMA synchronous=NORMAL").run()
    }
}
