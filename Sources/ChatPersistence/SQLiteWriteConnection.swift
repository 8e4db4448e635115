import Logging
import Metrics
import NIOCore
import NIOPosix
import SQLKit
import SQLiteKit
import SQLiteNIO

/// The one connection every message write goes through.
///
/// The store writes on a connection of its own rather than through Fluent's pool: Fluent's SQLite driver runs
/// `withConnection` through a Swift task, which costs two extra thread hops per batch, and a single writer never
/// waits for SQLite's write lock. Reads (history when a room opens) still use Fluent.
///
/// Its settings are made once, when it opens:
/// - WAL lets readers run while a batch is written, and makes a commit one append to the log.
/// - ``Durability/process`` (the default): `synchronous=NORMAL` in WAL mode keeps every committed transaction
///   across a crash of the process (SIGKILL included), without waiting for the disk; a power loss can lose the
///   last commits. ``Durability/power``: `synchronous=FULL`, one sync of the log per commit — per batch, since the
///   room commits many messages at once.
/// - `wal_autocheckpoint=0`: the log is checkpointed by ``WALCheckpointer`` on a connection of its own, never
///   inside a message commit.
public final class SQLiteWriteConnection: Sendable {
    private let connection: SQLiteConnection
    /// The log's checkpoints, on a thread of their own; `nil` when opened without.
    private let checkpoints: (checkpointer: WALCheckpointer, thread: NIOThreadPool)?
    /// The connection as SQLKit sees it (with the same encoder Fluent uses, so Fluent reads back what it wrote),
    /// behind the queue that keeps one write's statements together.
    public let writer: SerialSQLWriter

    private init(connection: SQLiteConnection, checkpoints: (WALCheckpointer, NIOThreadPool)?, waits: Metrics.Timer?) {
        self.connection = connection
        self.checkpoints = checkpoints
        self.writer = SerialSQLWriter(connection.sql(), waits: waits)
    }

    /// Opens the database file on `eventLoop` (write results are delivered there), applies the settings and, unless
    /// told not to (tests of the log itself), starts a ``WALCheckpointer`` on a thread of its own. `waits` records how
    /// long each write waits for the writes before it.
    public static func open(
        path: String, durability: Durability, threadPool: NIOThreadPool, on eventLoop: any EventLoop, logger: Logger,
        checkpointing: Bool = true, waits: Metrics.Timer? = nil
    ) async throws -> SQLiteWriteConnection {
        let connection = try await SQLiteConnection.open(
            storage: .file(path: path), threadPool: threadPool, logger: logger, on: eventLoop
        ).get()
        let thread = NIOThreadPool(numberOfThreads: 1)
        do {
            let sql = connection.sql()
            try await sql.raw("PRAGMA journal_mode=WAL").run()
            try await sql.raw("PRAGMA synchronous=\(unsafeRaw: durability == .power ? "FULL" : "NORMAL")").run()
            try await sql.raw("PRAGMA wal_autocheckpoint=0").run()
            // Applied by the connection that writes the log, when it starts the log over after a checkpoint.
            try await sql.raw("PRAGMA journal_size_limit=\(unsafeRaw: String(WALCheckpointer.logLimitBytes))").run()
            try await sql.raw("PRAGMA secure_delete=ON").run()
            guard checkpointing else {
                return SQLiteWriteConnection(connection: connection, checkpoints: nil, waits: waits)
            }
            thread.start()
            let checkpointer = try await WALCheckpointer.start(
                path: path, threadPool: thread, on: eventLoop, logger: logger)
            return SQLiteWriteConnection(connection: connection, checkpoints: (checkpointer, thread), waits: waits)
        } catch {
            try? await connection.close()
            try? await thread.shutdownGracefully()
            throw error
        }
    }

    /// `PRAGMA synchronous` as the write connection has it (1 NORMAL, 2 FULL), for tests.
    public func synchronousMode() async throws -> Int {
        try await self.writer.sql.raw("PRAGMA synchronous").first()?.decode(column: "synchronous", as: Int.self) ?? -1
    }

    /// Closes the connection, then checkpoints one last time and stops the checkpointer.
    public func close() async {
        try? await self.connection.close()
        if let (checkpointer, thread) = self.checkpoints {
            await checkpointer.close()
            try? await thread.shutdownGracefully()
        }
    }
}

/// What an acknowledgement promises about a crash (PROTOCOL.md §8.3).
public enum Durability: String, Sendable, CaseIterable {
    /// Kept across a crash of the process; the disk syncs at checkpoints, off the commit path.
    case process
    /// Kept across a power loss too: the log is synced before every commit returns.
    case power
}
