import ChatCore
import ChatUseCases
import Foundation
import Logging
import NIOConcurrencyHelpers
import PostgresNIO

/// One process's rows of the `presence` table, written for many accounts in one transaction (``PostgresPresence``).
///
/// *Why in batches:* each account's change was a transaction of its own, six round trips holding one of the pool's
/// connections. When thousands connect at once (the clients of a lost node), those transactions filled the pool,
/// and every other query of the node (a token, a membership, a `resume`) waited behind them until its deadline
/// (docs/BENCHMARKS.md "Scale"). A batch holds one connection for the same six statements, whatever its size.
struct PresenceRows: Sendable {
    let client: PostgresClient
    /// This process: its rows are its own, whatever node name it was given.
    let instance: UUID
    /// Seconds a row lives unless refreshed.
    let lifetime: Int
    let here: NIOLockedValueBox<PresenceTracker?>
    let logger: Logger

    /// A state the database has not yet been told.
    struct Change: Sendable {
        let user: UUID
        /// When the user went offline, as the tracker saw it (announced with the news).
        let lastSeen: Date?
    }

    /// Accounts per transaction at most: each holds an advisory lock until commit, and PostgreSQL's lock table has
    /// room for 64 per connection by default (`max_locks_per_transaction`), shared by every node.
    static let accountsPerTransaction = 200

    /// Makes this process's rows of the accounts say what the tracker says *now* (a late report of an old change
    /// cannot undo a newer one), under the accounts' locks, in a transaction per ``accountsPerTransaction``;
    /// announces an account online when its row is its only one, offline when the row was its last.
    func reconcile(_ changes: [Change]) async throws {
        var lastSeen: [UUID: Date] = [:]
        for change in changes { lastSeen[change.user] = change.lastSeen ?? lastSeen[change.user] }
        for chunk in Self.perTransaction(Array(Set(changes.map(\.user)))) {
            try await self.reconcile(chunk: chunk, lastSeen: lastSeen)
        }
    }

    /// `users` in runs of at most ``accountsPerTransaction``, a transaction each.
    private static func perTransaction(_ users: [UUID]) -> [[UUID]] {
        stride(from: 0, to: users.count, by: Self.accountsPerTransaction).map {
            Array(users[$0..<min($0 + Self.accountsPerTransaction, users.count)])
        }
    }

    private func reconcile(chunk users: [UUID], lastSeen: [UUID: Date]) async throws {
        let tracker = self.here.withLockedValue { $0 }
        try await self.client.withTransaction(logger: self.logger) { connection in
            try await self.lock(users, on: connection)
            let counts = try await self.rows(of: users, on: connection)
            var online: [UUID] = []
            var gone: [UUID] = []
            var news: [PostgresPresence.Payload] = []
            var offline: [(UUID, Date)] = []
            for user in users {
                let (mine, others) = counts[user] ?? (false, 0)
                if tracker?.isOnline(user) ?? false {
                    online.append(user)
                    if !mine && others == 0 { news.append(PostgresPresence.Payload(user: user, online: true)) }
                } else if mine {
                    gone.append(user)
                    if others == 0 { offline.append((user, lastSeen[user] ?? Date())) }
                }
            }
            if !online.isEmpty {
                try await connection.query(
                    """
                    INSERT INTO presence (instance, account, expires_at)
                    SELECT \(self.instance), account, now() + make_interval(secs => \(self.lifetime))
                    FROM unnest(\(online)::uuid[]) AS account
                    ON CONFLICT (account, instance) DO UPDATE SET expires_at = EXCLUDED.expires_at
                    """, logger: self.logger)
            }
            if !gone.isEmpty {
                try await connection.query(
                    "DELETE FROM presence WHERE instance = \(self.instance) AND account = ANY(\(gone))",
                    logger: self.logger)
            }
            try await self.wentOffline(offline, on: connection)
            try await self.notify(news, on: connection)
        }
    }

    /// Announces offline, at commit, each account whose rows expired (just deleted by the sweep) if no process has
    /// an unexpired row of it and this one has none left, under the accounts' locks.
    func announceExpired(_ users: [UUID]) async throws {
        for chunk in Self.perTransaction(users) {
            try await self.announceExpired(chunk: chunk)
        }
    }

    private func announceExpired(chunk users: [UUID]) async throws {
        let lastSeen = Date()
        try await self.client.withTransaction(logger: self.logger) { connection in
            try await self.lock(users, on: connection)
            let counts = try await self.rows(of: users, on: connection)
            let offline = users.filter { user in counts[user].map { !$0.mine && $0.others == 0 } ?? true }
                .map { ($0, lastSeen) }
            try await self.wentOffline(offline, on: connection)
        }
    }

    /// Every account's advisory lock, taken in the order of the locks' keys: every transaction of every node takes
    /// them in that order, so none waits for another in a cycle.
    private func lock(_ users: [UUID], on connection: PostgresConnection) async throws {
        try await connection.query(
            """
            SELECT pg_advisory_xact_lock(\(PostgresPresence.lockSpace), key)
            FROM (SELECT hashtext(account) AS key FROM unnest(\(users.map(\.uuidString))::text[]) AS account
                  ORDER BY key OFFSET 0) AS ordered
            """, logger: self.logger)
    }

    /// For each account with a row: whether this process has one (expired or not: until swept, nobody announced it
    /// offline), and how many unexpired rows other processes have.
    private func rows(of users: [UUID], on connection: PostgresConnection) async throws -> [UUID: (
        mine: Bool, others: Int64
    )] {
        let rows = try await connection.query(
            """
            SELECT account, count(*) FILTER (WHERE instance = \(self.instance)),
                   count(*) FILTER (WHERE instance <> \(self.instance) AND expires_at > now())
            FROM presence WHERE account = ANY(\(users)) GROUP BY account
            """, logger: self.logger)
        var counts: [UUID: (mine: Bool, others: Int64)] = [:]
        for try await (account, mine, others) in rows.decode((UUID, Int64, Int64).self) {
            counts[account] = (mine > 0, others)
        }
        return counts
    }

    /// Records when each account was last seen and announces it offline, both at commit.
    private func wentOffline(_ accounts: [(UUID, Date)], on connection: PostgresConnection) async throws {
        guard !accounts.isEmpty else { return }
        try await connection.query(
            """
            UPDATE users SET last_seen_at = seen.at
            FROM unnest(\(accounts.map(\.0))::uuid[], \(accounts.map(\.1))::timestamptz[]) AS seen(id, at)
            WHERE users.id = seen.id
            """, logger: self.logger)
        try await self.notify(
            accounts.map { PostgresPresence.Payload(user: $0.0, online: false, lastSeen: $0.1.milliseconds) },
            on: connection)
    }

    /// Queued in the transaction, in order: sent to every listening node when it commits.
    private func notify(_ news: [PostgresPresence.Payload], on connection: PostgresConnection) async throws {
        guard !news.isEmpty else { return }
        let encoder = JSONEncoder()
        let texts = try news.map { String(decoding: try encoder.encode($0), as: UTF8.self) }
        try await connection.query(
            """
            SELECT pg_notify(\(PostgresPresence.channel), payload)
            FROM unnest(\(texts)::text[]) WITH ORDINALITY AS news(payload, position) ORDER BY position
            """, logger: self.logger)
    }
}
