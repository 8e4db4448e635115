import ChatCore
import ChatPersistence
import Foundation
import Logging
import PostgresNIO

/// The per-account send limit shared by every node: the same token bucket as ``AttemptLimiter`` (GCRA: per account
/// only the moment its bucket is full again), kept in `send_limits` and moved by one statement per send, which
/// PostgreSQL runs atomically whichever node sends.
///
/// A database that does not answer lets the send through (the log says so): the commit that follows fails on its
/// own, with the error the sender should see.
struct PostgresSendLimit: SendLimit {
    let client: PostgresClient
    let logger: Logger
    /// Seconds between two sends once the burst is spent.
    let refill: Double
    /// Seconds of sends the bucket holds (`burst × refill`).
    let capacity: Double

    init(client: PostgresClient, burst: Int, rate: Int, logger: Logger) {
        self.client = client
        self.logger = logger
        self.refill = 1 / Double(rate)
        self.capacity = Double(burst) / Double(rate)
    }

    func attempt(_ account: UUID) async -> Duration? {
        do {
            // Within a deadline, as every store call (PostgresStorage.storeDeadline): a query on a lost connection
            // may never be answered.
            return try await Deadline.run(within: PostgresStorage.storeDeadline) {
                let statement = Take(account: account, refill: self.refill, capacity: self.capacity)
                for try await (taken, wait) in try await self.client.execute(statement, logger: self.logger)
                where taken == 0 {
                    return .milliseconds(Int64(max(wait ?? 0, 0) * 1000) + 1)
                }
                return nil
            }
        } catch {
            self.logger.warning(
                "the shared send limit could not be read; this send is let through: \(String(reflecting: error))")
            return nil
        }
    }

    /// Takes one send from the account's bucket if it has room; answers whether it did and, when not, how long to
    /// wait. Prepared once per connection: it runs for every send.
    ///
    /// Its commit does not wait for the WAL to reach the disk (`synchronous_commit` off for this statement's own
    /// transaction, set by `set_config(…, true)`): a bucket's state lost to a crash of PostgreSQL only lets an
    /// account send a burst early, and the wait for the flush was half of the statement's cost (BENCHMARKS.md).
    struct Take: PostgresPreparedStatement {
        // The bucket moves only when it has room. The outer SELECT sees the row as it was before the statement,
        // which is what tells how long to wait when nothing was taken.
        static let sql = """
            WITH taken AS (
                INSERT INTO send_limits AS l (account, full_again)
                VALUES ($1, now() + make_interval(secs => $2))
                ON CONFLICT (account) DO UPDATE
                SET full_again = GREATEST(l.full_again, now()) + make_interval(secs => $2)
                WHERE GREATEST(l.full_again, now()) + make_interval(secs => $2) - now() <= make_interval(secs => $3)
                RETURNING account
            )
            SELECT (SELECT count(*) FROM taken) AS taken,
                EXTRACT(EPOCH FROM (SELECT GREATEST(full_again, now()) FROM send_limits WHERE account = $1)
                    + make_interval(secs => $2) - now())::float8 - $3 AS wait,
                set_config('synchronous_commit', 'off', true)
            """
        typealias Row = (Int64, Double?)

        let account: UUID
        let refill: Double
        let capacity: Double

        func makeBindings() throws -> PostgresBindings {
            try PostgresBindings(binding: self.account, self.refill, self.capacity)
        }

        /// The third column is `set_config`'s.
        func decodeRow(_ row: PostgresRow) throws -> (Int64, Double?) {
            let (taken, wait, _) = try row.decode((Int64, Double?, String).self)
            return (taken, wait)
        }
    }
}
