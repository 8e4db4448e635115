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
    /// Which commits the search index has caught up with, and whether a round is scheduled.
    private let indexing = NIOLockedValueBox(SearchIndexing())

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

    /// Indexes for search every message committed before it (``SQLiteMessageSearch/indexPending``). When the last
    /// round finished after the last commit there is nothing to index, and it returns at once: a search does not
    /// queue a write behind the rooms' commits.
    public func indexSearch() async throws {
        guard self.indexing.withLockedValue({ $0.indexed != $0.commits }) else { return }
        try await self.serially(self.indexRound).get()
    }

    /// Counts a commit that may hold messages to index, and runs a round after ``searchDelay`` unless one is already
    /// scheduled. A round that fails (the database busy for a minute) leaves its messages to the next round, to the
    /// next search, or to the next start.
    ///
    /// Called on the commit's success before anyone else hears of it, so every commit acknowledged before a search
    /// is counted when the search calls ``indexSearch()``.
    func committed() {
        let scheduled = self.indexing.withLockedValue { indexing in
            defer {
                indexing.commits &+= 1
                indexing.scheduled = true
            }
            return indexing.scheduled
        }
        guard !scheduled else { return }
        self.sql.eventLoop.scheduleTask(in: self.indexingDelay) {
            // Commits from now on schedule the next round.
            self.indexing.withLockedValue { $0.scheduled = false }
            _ = self.serially(self.indexRound)
        }
    }

    /// One round of indexing (only inside ``serially(_:)``): it covers every commit counted when it starts, since
    /// those were queued before it.
    private func indexRound() -> EventLoopFuture<Void> {
        let commits = self.indexing.withLockedValue { $0.commits }
        return self.execute(SQLiteMessageSearch.indexPending.map(SQLRaw.init)).map {
            self.indexing.withLockedValue { $0.indexed = commits }
        }
    }

    /// Runs `job` with the handle on the writer's thread (only inside ``serially(_:)``, or before any write).
    func withHandle<Value: Sendable>(
        _ job: @escaping @Sendable (SQLiteCommitHandle) throws -> Value
    ) -> EventLoopFuture<Value> {
        self.thread.runIfActive(eventLoop: self.sql.eventLoop) { [handle] in try job(handle) }
    }
}

/// How far the search index has followed the commits, counted in commits (wrapping is harmless: only equality is
/// compared).
private struct SearchIndexing {
    /// Commits counted so far; it starts one ahead, for what a stop may have left unindexed.
    var commits = 1
    /// The value of `commits` when the last successful round started.
    var indexed = 0
    /// Whether a round is scheduled to run after ``SerialSQLWriter/searchDelay``.
    var scheduled = false
}
