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
    /// SQLiteNIO's connection to the same file: the writer's reads (the originals of retried sends) go through it.
    private let connection: SQLiteConnection
    /// The writer's own handle and thread (``SQLiteCommitHandle``).
    private let thread: NIOThreadPool
    /// The log's checkpoints, on a thread of their own; `nil` when opened without.
    private let checkpoints: (checkpointer: WALCheckpointer, thread: NIOThreadPool)?
    /// The queue that keeps one write's statements together, with the connection as SQLKit sees it (with the same
    /// encoder Fluent uses, so Fluent reads back what it wrote).
    public let writer: SerialSQLWriter

    private init(
        connection: SQLiteConnection, handle: SQLiteCommitHandle, thread: NIOThreadPool,
        checkpoints: (WALCheckpointer, NIOThreadPool)?, waits: Metrics.Timer?, searchDelay: TimeAmount
    ) {
        self.connection = connection
        self.thread = thread
        self.checkpoints = checkpoints
        self.writer = SerialSQLWriter(
            connection.sql(), handle: handle, thread: thread, waits: waits, searchDelay: searchDelay)
    }

    /// Opens the database file on `eventLoop` (write results are delivered there), applies the settings and, unless
    /// told not to (tests of the log itself), starts a ``WALCheckpointer`` on a thread of its own. `waits` records how
    /// long each write waits for the writes before it; tests that look at the search index before it catches up
    /// lengthen `searchDelay`.
    public static func open(
        path: String, durability: Durability, threadPool: NIOThreadPool, on eventLoop: any EventLoop, logger: Logger,
        checkpointing: Bool = true, waits: Metrics.Timer? = nil, searchDelay: TimeAmount = SerialSQLWriter.searchDelay
    ) async throws -> SQLiteWriteConnection {
        let connection = try await SQLiteConnection.open(
            storage: .file(path: path), threadPool: threadPool, logger: logger, on: eventLoop
        ).get()
        let thread = NIOThreadPool(numberOfThreads: 1)
        thread.start()
        let checkpointThread = NIOThreadPool(numberOfThreads: 1)
        var handle: SQLiteCommitHandle?
        do {
            try await connection.sql().raw("PRAGMA journal_mode=WAL").run()
            let opened = try await thread.runIfActive { () throws -> SQLiteCommitHandle in
                let handle = try SQLiteCommitHandle.open(path: path)
                do {
                    try handle.run("PRAGMA synchronous=\(durability == .power ? "FULL" : "NORMAL")", [])
                    try handle.run("PRAGMA wal_autocheckpoint=0", [])
                    // Applied by the connection that writes the log, when it starts the log over after a checkpoint.
                    try handle.run("PRAGMA journal_size_limit=\(WALCheckpointer.logLimitBytes)", [])
                    try handle.run("PRAGMA secure_delete=ON", [])
                } catch {
                    handle.close()
                    throw error
                }
                return handle
            }
            handle = opened
            guard checkpointing else {
                return SQLiteWriteConnection(
                    connection: connection, handle: opened, thread: thread, checkpoints: nil, waits: waits,
                    searchDelay: searchDelay)
            }
            checkpointThread.start()
            let checkpointer = try await WALCheckpointer.start(
                path: path, threadPool: checkpointThread, on: eventLoop, logger: logger)
            return SQLiteWriteConnection(
                connection: connection, handle: opened, thread: thread, checkpoints: (checkpointer, checkpointThread),
                waits: waits, searchDelay: searchDelay)
        } catch {
            if let handle { try? await thread.runIfActive { handle.close() } }
            try? await connection.close()
            try? await thread.shutdownGracefully()
            try? await checkpointThread.shutdownGracefully()
            throw error
        }
    }

    /// A setting as the handle that writes has it, for tests: `synchronous` (1 NORMAL, 2 FULL), `wal_autocheckpoint`.
    public func setting(_ name: String) async throws -> Int {
        try await self.writer.withHandle { try $0.integer("PRAGMA \(name)") }.get() ?? -1
    }

    /// Closes the connections, then checkpoints one last time and stops the checkpointer.
    public func close() async {
        // After every write queued: the handle is closed by the write queue's last job.
        try? await self.writer.serially { self.writer.withHandle { $0.close() } }.get()
        try? await self.thread.shutdownGracefully()
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
