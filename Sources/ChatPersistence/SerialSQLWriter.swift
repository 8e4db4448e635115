import Metrics
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import SQLKit
import SQLiteKit

/// Runs writes on one SQLite connection strictly one after another.
///
/// Every room writes through the same connection. A write of several statements is a transaction, and a statement
/// from another room must never run between its `BEGIN` and `COMMIT` (it would be rolled back with it, after its
/// sender was told it was stored), so each write starts only when the previous one has finished.
///
/// Each write runs in one job on the writer's own thread, on its own handle with its statements kept prepared
/// (``SQLiteCommitHandle``); `sql` is the same database through SQLiteKit, for serializing statements and for reads.
public final class SerialSQLWriter: Sendable {
    public let sql: any SQLDatabase
    private let handle: SQLiteCommitHandle
    private let thread: NIOThreadPool
    private let encoder = SQLiteDataEncoder()
    /// The last write queued; the next one starts when it completes, successfully or not.
    private let tail: NIOLockedValueBox<EventLoopFuture<Void>>
    /// How long each write waited for the ones queued before it.
    private let waits: Metrics.Timer?
    /// Whether ``indexSearch()`` is scheduled to run after ``searchDelay``.
    private let indexingScheduled = NIOLockedValueBox(false)

    /// How long after a commit its messages are indexed for search at the latest (``IndexSearchAfterCommit``): under
    /// load one round indexes the messages of many commits at once; a search never waits for it.
    public static let searchDelay = TimeAmount.milliseconds(100)

    /// ``searchDelay`` but in tests that look at the index before it catches up.
    private let indexingDelay: TimeAmount

    init(
        _ sql: any SQLDatabase, handle: SQLiteCommitHandle, thread: NIOThreadPool, waits: Metrics.Timer? = nil,
        searchDelay: TimeAmount = SerialSQLWriter.searchDelay
    ) {
        self.sql = sql
        self.indexingDelay = searchDelay
        self.handle = handle
        self.thread = thread
        self.waits = waits
        self.tail = NIOLockedValueBox(sql.eventLoop.makeSucceededVoidFuture())
    }

    /// Runs the statements after every write queued before, as one transaction when there are several.
    public func write(_ statements: [any SQLExpression]) -> EventLoopFuture<Void> {
        self.serially { self.execute(statements) }
    }

    /// Runs `job` after every write queued before, and the next write only after it: nothing else is written on this
    /// connection between what the job reads and what it writes.
    func serially<Value: Sendable>(_ job: @escaping @Sendable () -> EventLoopFuture<Value>) -> EventLoopFuture<Value> {
        let queued = ContinuousClock.now
        return self.tail.withLockedValue { tail in
            let written = tail.flatMap {
                self.waits?.record(duration: ContinuousClock.now - queued)
                return job()
            }
            tail = written.map { _ in }.recover { _ in }
            return written
        }
    }

    /// Runs the statements on the writer's thread, as one transaction when there are several (only inside
    /// ``serially(_:)``).
    func execute(_ statements: [any SQLExpression]) -> EventLoopFuture<Void> {
        let serialized: [(sql: String, binds: [SQLiteData])]
        do {
            serialized = try statements.map { statement in
                let (sql, binds) = self.sql.serialize(statement)
                return (sql, try binds.map { try self.encoder.encode($0) })
            }
        } catch {
            return self.sql.eventLoop.makeFailedFuture(error)
        }
        return self.thread.runIfActive(eventLoop: self.sql.eventLoop) { [handle] in
            try handle.transaction(serialized)
        }
    }

    /// Indexes for search every message committed before it (``SQLiteMessageSearch/indexPending``).
    public func indexSearch() async throws {
        try await self.serially(self.indexRound).get()
    }

    /// One round of indexing (only inside ``serially(_:)``).
    private func indexRound() -> EventLoopFuture<Void> {
        self.execute(SQLiteMessageSearch.indexPending.map(SQLRaw.init))
    }

    /// Runs ``indexSearch()`` after ``searchDelay``, unless a round is already scheduled. A round that fails (the
    /// database busy for a minute) leaves its messages to the next round, to the next search, or to the next start.
    func indexSearchSoon() {
        let scheduled = self.indexingScheduled.withLockedValue { scheduled in
            defer { scheduled = true }
            return scheduled
        }
        guard !scheduled else { return }
        self.sql.eventLoop.scheduleTask(in: self.indexingDelay) {
            // Commits from now on schedule the next round.
            self.indexingScheduled.withLockedValue { $0 = false }
            _ = self.serially(self.indexRound)
        }
    }

    /// Runs `job` with the handle on the writer's thread (only inside ``serially(_:)``, or before any write).
    func withHandle<Value: Sendable>(
        _ job: @escaping @Sendable (SQLiteCommitHandle) throws -> Value
    ) -> EventLoopFuture<Value> {
        self.thread.runIfActive(eventLoop: self.sql.eventLoop) { [handle] in try job(handle) }
    }
}
