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
/// `PASSIVE` checkpoint every ``interval``, which never waits for writers or readers. Should readers keep the log
/// from being recycled until it passes ``restartBytes``, it asks for a `RESTART` checkpoint (which waits for them,
/// at most a second) so the file cannot grow without bound; the write connection's `journal_size_limit` then
/// truncates it back when it starts the log over.
public final class WALCheckpointer: Sendable {
    /// How often committed pages are checkpointed.
    public static let interval = TimeAmount.milliseconds(500)
    /// The log size that asks for a blocking checkpoint, and the size the log is truncated to after one.
    public static let restartBytes = 64 * 1024 * 1024

    private let connection: SQLiteConnection
    private let walPath: String
    private let task = NIOLockedValueBox<RepeatedTask?>(nil)
    private let logger: Logger

    private init(connection: SQLiteConnection, walPath: String, logger: Logger) {
        self.connection = connection
        self.walPath = walPath
        self.logger = logger
    }

    /// Opens a connection of its own (with a thread of its own, so a checkpoint's disk sync never holds up the
    /// pool the write connection uses) and starts checkpointing.
    public static func start(path: String, threadPool: NIOThreadPool, on eventLoop: any EventLoop, logger: Logger) async throws -> WALCheckpointer {
        let connection = try await SQLiteConnection.open(storage: .file(path: path), threadPool: threadPool, logger: logger, on: eventLoop).get()
        let checkpointer = WALCheckpointer(connection: connection, walPath: path + "-wal", logger: logger)
        // A RESTART checkpoint waits for readers while holding the write lock: give up after a second rather than
        // hold every message commit behind a long reader (a backup); the next round tries again.
        try await connection.sql().raw("PRAGMA busy_timeout=1000").run()
        let task = eventLoop.scheduleRepeatedAsyncTask(initialDelay: Self.interval, delay: Self.interval) { _ in
            checkpointer.checkpoint()
        }
        checkpointer.task.withLockedValue { $0 = task }
        return checkpointer
    }

    /// One checkpoint: passive, or restart when the log has grown past ``restartBytes``.
    func checkpoint() -> EventLoopFuture<Void> {
        let size = (try? FileManager.default.attributesOfItem(atPath: self.walPath)[.size] as? Int) ?? 0
        let mode = size > Self.restartBytes ? "RESTART" : "PASSIVE"
        return self.connection.sql().raw("PRAGMA wal_checkpoint(\(unsafeRaw: mode))").run().flatMapError { error in
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
