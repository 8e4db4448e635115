import NIOConcurrencyHelpers

/// What `/readyz` says while the database does not answer (or PostgreSQL's listeners reconnect): still ready for a
/// grace period, then not.
///
/// *Why a grace:* every node shares one PostgreSQL, so its restart fails every node's check at the same moment. A
/// balancer that took them all out would refuse every new client for the whole outage, although each node keeps
/// its connected clients, serves what needs no database, answers the rest `503 unavailable` with `Retry-After`, and
/// reconnects by itself. Within the grace a node stays in (`degraded`); past it, the outage is no short restart, or
/// it is this node's alone, and it goes out. The grace counts from the first failing check.
final class StoreOutage: Sendable {
    enum Verdict: String {
        case ready
        /// The database does not answer, for less than the grace: still given clients.
        case degraded
        case notReady = "not ready"
    }

    private let grace: Duration
    private let since = NIOLockedValueBox<ContinuousClock.Instant?>(nil)

    init(grace: Duration) {
        self.grace = grace
    }

    /// The verdict of one check: `healthy` when the database and the storage's listeners answered.
    func verdict(healthy: Bool, at now: ContinuousClock.Instant = .now) -> Verdict {
        self.since.withLockedValue { since in
            guard !healthy else {
                since = nil
                return .ready
            }
            let start = since ?? now
            since = start
            return now - start < self.grace ? .degraded : .notReady
        }
    }
}
