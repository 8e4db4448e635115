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
            // The bucket moves only when it has room. The outer SELECT sees the row as it was before the statement,
            // which is what tells how long to wait when nothing was taken.
            let rows = try await self.client.query(
                """
                WITH taken AS (
                    INSERT INTO send_limits AS l (account, full_again)
                    VALUES (\(account), now() + make_interval(secs => \(self.refill)))
                    ON CONFLICT (account) DO UPDATE
                    SET full_again = GREATEST(l.full_again, now()) + make_interval(secs => \(self.refill))
                    WHERE GREATEST(l.full_again, now()) + make_interval(secs => \(self.refill)) - now()
                        <= make_interval(secs => \(self.capacity))
                    RETURNING account
                )
                SELECT (SELECT count(*) FROM taken) AS taken,
                    EXTRACT(EPOCH FROM (SELECT GREATEST(full_again, now()) FROM send_limits WHERE account = \(account))
                        + make_interval(secs => \(self.refill)) - now())::float8 - \(self.capacity) AS wait
                """, logger: self.logger)
            for try await (taken, wait) in rows.decode((Int64, Double?).self) where taken == 0 {
                return .milliseconds(Int64(max(wait ?? 0, 0) * 1000) + 1)
            }
            return nil
        } catch {
            self.logger.warning(
                "the shared send limit could not be read; this send is let through: \(String(reflecting: error))")
            return nil
        }
    }
}
