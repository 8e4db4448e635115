import ChatCore
import ChatUseCases
import Foundation
import Logging
import NIOConcurrencyHelpers
import PostgresNIO

/// Presence across nodes (PROTOCOL.md §9.5): every server process keeps one row in `presence` per account it holds
/// a connection of (its ``PresenceTracker`` counts them, with the grace period), and pushes the rows' expiry
/// forward every quarter of `lifetime`. An account is online while an unexpired row names it.
///
/// The tracker is the truth; rows follow it. The changes reported while the previous ones were written go together
/// in one transaction (``PresenceRows``), holding an advisory lock on each account, and write what the tracker says
/// *then* (so a late report of an old change cannot undo a newer one), and the heartbeat writes the tracker's whole
/// set again, so a write that failed, or rows another node swept while this one could not reach the database, are
/// repaired within a quarter of `lifetime`.
///
/// A change is news only when it changes the answer: an account's first row, its last row gone. The news goes out
/// by `NOTIFY swiftchat_presence`, sent at commit, to every node, this one included: each node pushes it to its
/// connections in the order the database committed the changes. A node that stops (gracefully or not) leaves its
/// rows: users who reconnect to another node within `lifetime` do not flap, and every node sweeps expired rows, the
/// sweep that takes an account's last row announcing it offline.
public final class PostgresPresence: PresenceAnnouncer {
    static let channel = "swiftchat_presence"
    /// The first key of the two-key advisory locks taken per account (a space apart from one-key locks).
    static let lockSpace: Int32 = 0x5052
    /// How long one account's change or one heartbeat may take before it is abandoned (and retried by the next
    /// heartbeat): PostgresNIO can leave a query on a dead connection unanswered.
    static let writeDeadline = Duration.seconds(5)

    struct Payload: Codable {
        var user: UUID
        var online: Bool
        /// Milliseconds since 1970, going offline.
        var lastSeen: Int64?
    }

    private let here: NIOLockedValueBox<PresenceTracker?>
    private let client: PostgresClient
    private let broadcaster: any PresenceAudience
    private let lifetime: Int
    private let logger: Logger
    private let tasks = BackgroundTasks()
    private let rows: PresenceRows
    /// The changes reported while the previous batch was written go together in the next.
    private let changes: BatchQueue<PresenceRows.Change, Void>

    /// Changes taken together at most (written a transaction per ``PresenceRows/accountsPerTransaction``).
    static let maxBatch = 1000

    public init(client: PostgresClient, broadcaster: any PresenceAudience, lifetime: Int, logger: Logger) {
        self.client = client
        self.broadcaster = broadcaster
        self.lifetime = lifetime
        self.logger = logger
        let here = NIOLockedValueBox<PresenceTracker?>(nil)
        self.here = here
        // This process's rows are its own, whatever node name it was given.
        let rows = PresenceRows(client: client, instance: UUID(), lifetime: lifetime, here: here, logger: logger)
        self.rows = rows
        self.changes = BatchQueue(maxBatch: Self.maxBatch) { batch in
            do {
                try await Deadline.run(within: Self.writeDeadline) { try await rows.reconcile(batch) }
            } catch is CancellationError {
                // The node is stopping: its rows stay until they expire, as a stopped node's do (see the type's
                // comment).
            } catch {
                // One line for the batch, which a storm makes a thousand changes long.
                logger.warning(
                    "could not record \(batch.count) accounts going online or offline here (the heartbeat will): \(String(reflecting: error))"
                )
            }
            return batch.map { _ in .success(()) }
        }
    }

    public func start(following tracker: PresenceTracker) {
        self.here.withLockedValue { $0 = tracker }
        self.tasks.run { await self.heartbeat() }
    }

    /// Returns once the change is written (or its batch failed, logged, for the heartbeat to repair).
    public func changed(_ user: UUID, online: Bool, lastSeen: Date?) async {
        _ = try? await self.changes.submit(PresenceRows.Change(user: user, lastSeen: lastSeen))
    }

    public func online(among users: Set<UUID>, here: Set<UUID>) async -> Set<UUID> {
        guard !users.isEmpty else { return [] }
        do {
            return try await Deadline.run(within: Self.writeDeadline) {
                let rows = try await self.client.query(
                    "SELECT DISTINCT account FROM presence WHERE account = ANY(\(Array(users))) AND expires_at > now()",
                    logger: self.logger)
                var online = here
                for try await account in rows.decode(UUID.self) { online.insert(account) }
                return online
            }
        } catch is CancellationError {
            return here
        } catch {
            self.logger.warning("could not read who is online on other nodes: \(String(reflecting: error))")
            return here
        }
    }

    /// An announcement of any node, this one's included, for this node's connections.
    func apply(_ text: String) async {
        guard let payload = try? JSONDecoder().decode(Payload.self, from: Data(text.utf8)) else { return }
        let lastSeen = payload.lastSeen.map { Date(timeIntervalSince1970: Double($0) / 1000) }
        self.broadcaster.push(payload.user, online: payload.online, lastSeen: lastSeen)
    }

    /// Stops the heartbeat, then waits for the broadcaster's last flush, which reads the database: the storage closes
    /// the pool after this, and the listener that feeds the broadcaster has stopped before it.
    public func close() async {
        await self.tasks.close()
        await self.broadcaster.drained()
    }

    /// Every quarter of the lifetime: this process's rows live on, missing ones are written, stale ones removed,
    /// and rows no process refreshed are swept.
    private func heartbeat() async {
        let interval = Duration.seconds(self.lifetime) / 4
        while !Task.isCancelled {
            do {
                try await Deadline.run(within: max(interval, Self.writeDeadline)) {
                    try await self.refresh()
                    try await self.sweep()
                }
            } catch {
                if Task.isCancelled { break }
                self.logger.warning("could not refresh presence: \(String(reflecting: error))")
            }
            try? await Task.sleep(for: interval)
        }
    }

    /// Pushes the expiry of this process's rows forward; accounts online here without a row, or with a row but no
    /// longer online here, go to the next batch (rare: a write that failed, an outage longer than the lifetime, a
    /// change still on its way).
    private func refresh() async throws {
        let online = self.here.withLockedValue { $0 }?.onlineUsers ?? []
        let rows = try await self.client.query(
            """
            UPDATE presence SET expires_at = now() + make_interval(secs => \(self.lifetime))
            WHERE instance = \(self.rows.instance) RETURNING account
            """, logger: self.logger)
        var written: Set<UUID> = []
        for try await account in rows.decode(UUID.self) { written.insert(account) }
        // Into the changes' queue rather than written here: a heartbeat writing them itself waited for the locks of
        // the batch in flight, which holds the same accounts while their rows are still being written.
        for user in online.symmetricDifference(written) {
            self.changes.enqueue(PresenceRows.Change(user: user, lastSeen: nil))
        }
    }

    /// Deletes expired rows; an account left with none is announced offline, by whichever node deleted its row.
    private func sweep() async throws {
        let rows = try await self.client.query(
            "DELETE FROM presence WHERE expires_at <= now() RETURNING account", logger: self.logger)
        var accounts: Set<UUID> = []
        for try await account in rows.decode(UUID.self) { accounts.insert(account) }
        try await self.rows.announceExpired(Array(accounts))
    }
}
