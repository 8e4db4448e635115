import FluentKit
import Logging
import NIOCore
import SQLKit

/// How Fluent's SQLite connections wait for another connection's write lock.
///
/// SQLiteNIO installs a busy handler that retries at once, forever: a connection waiting for the lock spins on its
/// thread and takes a core from the connection that holds it (and, when every thread of the pool spins, the holder
/// never finishes). SQLite's own busy timeout sleeps between tries (1 ms, then longer) and gives up after
/// ``milliseconds``: the request then fails as a store failure (`503`) instead of hanging.
public enum SQLiteLockWaits {
    /// Longer than any write of the server's holds the lock (a checkpoint's restart gives up after one second).
    public static let milliseconds = 10_000

    /// Sets the busy timeout on each of Fluent's connections to `id`: it keeps one per event loop
    /// (`maxConnectionsPerEventLoop` is always 1 for SQLite) and never closes it, so one statement on each loop
    /// reaches them all.
    public static func apply(
        to databases: Databases, _ id: DatabaseID, eventLoops: any EventLoopGroup, logger: Logger
    ) async throws {
        for loop in eventLoops.makeIterator() {
            guard let sql = databases.database(id, logger: logger, on: loop)?.sql(ifDialect: "sqlite")
            else { continue }
            try await sql.raw("PRAGMA busy_timeout = \(literal: Self.milliseconds)").run()
        }
    }
}
