import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import SQLKit
import SQLiteKit
import SQLiteNIO

/// Moves committed pages from the write-ahead log into the database file, off the commit path.
///
/// SQLite's automatic checkpoint runs inside the `COMMIT` that crosses the threshold, on the committing
/// connection: every room's next commit waited behind a disk sync. The write connection turns it off
/// (`wal_autocheckpoint=0`) and this checkpointer does the work on a connection and a thread of its own: a
/// `PASSIVE` checkpoint every ``interval``, which never waits for writers or readers.
///
/// A passive checkpoint alone never lets the log start over while messages keep coming: the writer starts the log
/// over only when every frame in it has been checkpointed, and under steady traffic new frames arrive during each
/// checkpoint, so the log keeps growing (a commit appends whole pages: 64 MiB after 2,400 `/chat` messages). Once
/// it holds ``restartFrames``, the passive checkpoint (which has just copied nearly all of it) is followed by a
/// `RESTART` checkpoint: it holds the writers only while it copies the few frames written since and syncs, then
/// the next commit starts the log over, and the write connection's `journal_size_limit` (``logLimitBytes``)
/// truncates the file back. The threshold is high on purpose: each restart holds every commit for a moment, and a
/// 64 MiB log costs nothing else (measured in docs/BENCHMARKS.md: restarting at 4 MiB gave the same CPU per
/// message and a worse 99th percentile).
public final class WALCheckpointer: Sendable {
    /// How often committed pages are checkpointed.
    public static let interval = TimeAmount.milliseconds(500)
    /// The log length, in pages, past which the log is started over: 64 MiB of 4 KiB pages.
    public static let restartFrames = 16_384
    /// The size the log file is truncated to when it starts over.
    public static let logLimitBytes = 64 * 1024 * 1024

    private let connection: SQLiteConnection
    private let restartFrames: Int
    private let task = NIOLockedValueBox<RepeatedTask?>(nil)
    private let logger: Logger

    private init(connection: SQLiteConnection, restartFrames: Int, logger: Logger) {
        self.connection = connection
        self.restartFrames = restartFrames
        self.logger = logger
    }

    /// Opens a connection of its own (with a thread of its own, so a checkpoint's disk sync never holds up the
    /// pool the write connection uses) and starts checkpointing. Tests lower `restartFrames`.
    public static func start(
        path: String, threadPool: NIOThreadPool, on eventLoop: any EventLoop,
        restartFrames: Int = WALCheckpointer.restartFrames, logger: Logger
    ) async throws -> WALCheckpointer {
        let connection = try await SQLiteConnection.open(
            storage: .file(path: path), threadPool: threadPool, logger: logger, on: eventLoop
        ).get()
        let checkpointer = WALCheckpointer(connection: connection, restartFrames: restartFrames, logger: logger)
        // A RESTART checkpoint waits for readers while holding the write lock: give up after a second rather than
        // hold every message commit behind a long reader (a backup); the next round tries again.
        try await connection.sql().raw("PRAGMA busy_timeout=1000").run()
        let task = eventLoop.scheduleRepeatedAsyncTask(initialDelay: Self.interval, delay: Self.interval) { _ in
            checkpointer.checkpoint()
        }
        checkpointer.task.withLockedValue { $0 = task }
        return checkpointer
    }

    /// One checkpoint: passive, then a restart when the log is longer than `restartFrames`.
    func checkpoint() -> EventLoopFuture<Void> {
        let sql = self.connection.sql()
        return sql.raw("PRAGMA wal_checkpoint(PASSIVE)").first().flatMap { row in
            let frames = (try? row?.decode(column: "log", as: Int.self)) ?? 0
            guard frames >= self.restartFrames else { return sql.eventLoop.makeSucceededVoidFuture() }
            return sql.raw("PRAGMA wal_checkpoint(RESTART)").run()
        }.flatMapError { error in
            // SQLITE_BUSY and the like: the next round tries again.
            self.logger.debug("checkpoint skipped: \(error)")
            return self.connection.eventLoop.makeSucceededVoidFuture()
        }
    }

    /// Stops, after one last checkpoint so a clean shutdown leaves a short log.
    public func close() async {
        let stopped = self.connection.eventLoop.makePromise(of: Void.self)
        if let task = self.task.withLockedValue({ $0 }) { task.cancel(promise: stopped) } else { stopped.succeed() }
        try? await stopped.futureResult.get()
        try? await self.checkpoint().get()
        try? await self.connection.close()
    }
}
