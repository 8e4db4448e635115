import Metrics
import NIOConcurrencyHelpers
import NIOCore
import SQLKit

/// Runs writes on one SQL connection strictly one after another.
///
/// Every room writes through the same connection. A write of several statements is a transaction, and a statement
/// from another room must never run between its `BEGIN` and `COMMIT` (it would be rolled back with it, after its
/// sender was told it was stored), so each write starts only when the previous one has finished.
public final class SerialSQLWriter: Sendable {
    public let sql: any SQLDatabase
    /// The last write queued; the next one starts when it completes, successfully or not.
    private let tail: NIOLockedValueBox<EventLoopFuture<Void>>
    /// How long each write waited for the ones queued before it.
    private let waits: Metrics.Timer?

    public init(_ sql: any SQLDatabase, waits: Metrics.Timer? = nil) {
        self.sql = sql
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

    /// Runs the statements, as one transaction when there are several (only inside ``serially(_:)``).
    func execute(_ statements: [any SQLExpression]) -> EventLoopFuture<Void> {
        guard statements.count > 1 else {
            return statements.first.map(self.run) ?? self.sql.eventLoop.makeSucceededVoidFuture()
        }
        var chain = self.run(SQLRaw("BEGIN IMMEDIATE"))
        for statement in statements {
            chain = chain.flatMap { self.run(statement) }
        }
        return chain.flatMap { self.run(SQLRaw("COMMIT")) }.flatMapError { error in
            self.run(SQLRaw("ROLLBACK")).flatMapThrowing { throw error }.flatMapError { _ in
                self.sql.eventLoop.makeFailedFuture(error)
            }
        }
    }

    private func run(_ statement: any SQLExpression) -> EventLoopFuture<Void> {
        self.sql.execute(sql: statement) { _ in }
    }
}
