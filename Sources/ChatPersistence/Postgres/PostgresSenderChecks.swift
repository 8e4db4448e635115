import ChatCore
import Foundation
import Logging
import NIOConcurrencyHelpers
import PostgresNIO

/// How many messages an account may send, shared by every node: `burst` at once, then `rate` per second, as the
/// token bucket of ``AttemptLimiter`` (GCRA: per account only the moment its bucket is full again, in
/// `send_limits`).
public struct SendLimitRule: Sendable, Equatable {
    /// Sends at once.
    public let burst: Int
    /// Sends per second once the burst is spent.
    public let rate: Int
    /// Seconds between two sends once the burst is spent.
    let refill: Double
    /// Seconds of sends the bucket holds (`burst × refill`).
    let capacity: Double

    public init(burst: Int, rate: Int) {
        self.burst = burst
        self.rate = rate
        self.refill = 1 / Double(rate)
        self.capacity = Double(burst) / Double(rate)
    }

    /// Which of an account's sends, in order, pass when its bucket is `used` seconds full: the first ones that fit
    /// (each takes `refill`); the others are refused with how long until the first of them would pass. `used` after
    /// is how full the bucket is once the passing ones are taken.
    func admit(_ count: Int, used: Double) -> (passing: Int, retryAfter: Duration, usedAfter: Double) {
        let used = max(used, 0)
        // Slack of a microsecond: PostgreSQL keeps times to the microsecond, so `used` is rounded.
        let fitting = Int(((self.capacity - used + 1e-6) / self.refill).rounded(.down))
        let passing = min(max(fitting, 0), count)
        let wait = used + Double(passing + 1) * self.refill - self.capacity
        return (
            passing, .microseconds(Int64((max(wait, 0) * 1e6).rounded(.up)) + 1000),
            used + Double(passing) * self.refill
        )
    }
}

/// The checks of an account's send made by the transaction that commits it (``PostgresEventWriter``): whether the
/// sender is a member of the room, and whether their shared send limit has room. *Why there:* asked before the
/// room, each would be a round trip and a transaction of its own for every message (half of PostgreSQL's cost per
/// message, BENCHMARKS.md series J); in the commit, two statements answer a whole batch of rooms. Membership is
/// read by the committing transaction (as of its statement), not earlier by the worker.
///
/// The buckets of the batch's senders are locked in the order of their accounts, before the rooms' counters
/// (``PostgresStatements/AdvanceRooms``) are: every transaction takes its locks in that order, so two nodes'
/// transactions never wait for each other in a cycle. A bucket is created, in a transaction of its own, the first
/// time this node sees its account send: created inside the batch's transaction, its insertion would be a lock
/// taken out of order.
struct PostgresSenderChecks: Sendable {
    let rule: SendLimitRule
    let logger: Logger
    /// The accounts whose bucket this node knows exists (buckets are never deleted).
    private let known = NIOLockedValueBox<Set<UUID>>([])

    init(rule: SendLimitRule, logger: Logger) {
        self.rule = rule
        self.logger = logger
    }

    /// Creates the buckets of the senders this node has not seen yet, each full, in a transaction of its own.
    func prepareBuckets(for events: [StoredMessage], on client: PostgresClient) async throws {
        let senders = Set(events.lazy.filter(\.isAccountSend).map(\.sender.id))
        let unknown = self.known.withLockedValue { senders.subtracting($0) }
        guard !unknown.isEmpty else { return }
        let statement = CreateBuckets(accounts: Array(unknown))
        _ = try await client.withConnection { try await $0.rows(statement, logger: self.logger) }
        self.known.withLockedValue { $0.formUnion(unknown) }
    }

    /// Why each event may not be stored, `nil` for those that may: an account's send whose sender is not a member
    /// of its room (or is muted there), or whose bucket has no room left. Takes a send from the bucket of every account's send that
    /// passes; all in the caller's transaction.
    func refusals(of events: [StoredMessage], on connection: PostgresConnection) async throws -> [RoomRejection?] {
        let checked = events.indices.filter { events[$0].isAccountSend }
        var refusals = [RoomRejection?](repeating: nil, count: events.count)
        guard !checked.isEmpty else { return refusals }
        let statement = LockBuckets(
            rooms: checked.map { events[$0].room.rawValue }, accounts: checked.map { events[$0].sender.id })
        // Forbidden unless a row says the sender is a member: no row means no bucket (one removed by hand), so no
        // account to send as.
        for index in checked { refusals[index] = .forbidden }
        // Per account: its sends that are members, in order, and how full its bucket is.
        var sends: [UUID: (used: Double, indices: [Int])] = [:]
        for (ordinal, standing, used) in try await connection.rows(statement, logger: self.logger) {
            let index = checked[ordinal - 1]
            switch standing {
            case .notMember: continue
            case .muted:
                refusals[index] = .muted
                continue
            case .member: refusals[index] = nil
            }
            sends[events[index].sender.id, default: (used, [])].indices.append(index)
        }
        var accounts: [UUID] = []
        var fullAgain: [Double] = []
        for (account, send) in sends {
            let (passing, retryAfter, usedAfter) = self.rule.admit(send.indices.count, used: send.used)
            for index in send.indices.dropFirst(passing) { refusals[index] = .rateLimited(retryAfter: retryAfter) }
            guard passing > 0 else { continue }
            accounts.append(account)
            fullAgain.append(usedAfter)
        }
        if !accounts.isEmpty {
            _ = try await connection.rows(TakeSends(accounts: accounts, fullAgain: fullAgain), logger: self.logger)
        }
        return refusals
    }

    /// Creates buckets, full (`full_again` now), leaving those that exist as they are; in the accounts' order, so two
    /// nodes creating the same ones never wait for each other in a cycle.
    struct CreateBuckets: PostgresPreparedStatement {
        static let sql = """
            INSERT INTO send_limits (account, full_again) \
            SELECT account, now() FROM unnest($1::uuid[]) AS a(account) ORDER BY account \
            ON CONFLICT (account) DO NOTHING
            """
        typealias Row = ()

        let accounts: [UUID]

        func makeBindings() throws -> PostgresBindings { try PostgresBindings(binding: self.accounts) }

        func decodeRow(_ row: PostgresRow) throws {}
    }

    /// For each send (room, account), by its ordinal: whether the account may send in the room (``Standing``), and
    /// how many seconds of sends its bucket holds now; the buckets locked until commit, in the accounts' order.
    struct LockBuckets: PostgresPreparedStatement {
        static let sql = """
            SELECT d.ord, COALESCE((SELECT CASE WHEN EXISTS (SELECT 1 FROM room_restrictions r \
            WHERE r.room_id = d.room AND r.user_id = d.account AND r.kind = 'mute') THEN 2 ELSE 1 END \
            FROM memberships m WHERE m.room_id = d.room AND m.user_id = d.account), 0), \
            EXTRACT(EPOCH FROM GREATEST(s.full_again, now()) - now())::float8 \
            FROM unnest($1::text[], $2::uuid[]) WITH ORDINALITY AS d(room, account, ord) \
            JOIN send_limits s ON s.account = d.account \
            ORDER BY d.account, d.ord FOR UPDATE OF s
            """
        typealias Row = (Int, Standing, Double)

        /// The second column: 0, 1 or 2.
        enum Standing: Int32 {
            case notMember = 0
            case member = 1
            case muted = 2
        }

        let rooms: [String]
        let accounts: [UUID]

        func makeBindings() throws -> PostgresBindings { try PostgresBindings(binding: self.rooms, self.accounts) }

        func decodeRow(_ row: PostgresRow) throws -> (Int, Standing, Double) {
            let (ordinal, standing, used) = try row.decode((Int64, Int32, Double).self)
            return (Int(ordinal), Standing(rawValue: standing) ?? .notMember, used)
        }
    }

    /// Moves each account's bucket to hold `fullAgain` seconds of sends from now.
    struct TakeSends: PostgresPreparedStatement {
        static let sql = """
            UPDATE send_limits s SET full_again = now() + make_interval(secs => t.seconds) \
            FROM unnest($1::uuid[], $2::float8[]) AS t(account, seconds) WHERE s.account = t.account
            """
        typealias Row = ()

        let accounts: [UUID]
        let fullAgain: [Double]

        func makeBindings() throws -> PostgresBindings { try PostgresBindings(binding: self.accounts, self.fullAgain) }

        func decodeRow(_ row: PostgresRow) throws {}
    }
}
