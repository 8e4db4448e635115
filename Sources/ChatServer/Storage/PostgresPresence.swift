import ChatCore
import Foundation
import Logging
import PostgresNIO

/// Presence across nodes (PROTOCOL.md §9.5): every server process keeps one row in `presence` per account it holds
/// a connection of (its ``PresenceTracker`` counts them, with the grace period), and pushes the rows' expiry
/// forward every quarter of `lifetime`. An account is online while an unexpired row names it.
///
/// A change is news only when it changes that answer: an account's first row, its last row gone. Each change of
/// one account runs in a transaction holding an advisory lock on that account, so two nodes deciding at once see
/// each other's rows; the announcement goes to this node's connections, and by `NOTIFY swiftchat_presence`, sent at
/// commit, to the other nodes'. A node that stops (gracefully or not) leaves its rows: users who reconnect to another
/// node within `lifetime` do not flap, and every node sweeps expired rows, the sweep that takes an account's last
/// row announcing it offline.
final class PostgresPresence: PresenceAnnouncer {
    static let channel = "swiftchat_presence"
    /// The first key of the two-key advisory locks taken per account (a space apart from one-key locks).
    static let lockSpace: Int32 = 0x5052

    struct Payload: Codable {
        var origin: UUID
        var user: UUID
        var online: Bool
        /// Milliseconds since 1970, going offline.
        var lastSeen: Int64?
    }

    /// This process: its rows are its own, whatever node name it was given.
    private let instance = UUID()
    private let client: PostgresClient
    private let broadcaster: PresenceBroadcaster
    private let lifetime: Int
    private let logger: Logger
    private let tasks = BackgroundTasks()

    init(client: PostgresClient, broadcaster: PresenceBroadcaster, lifetime: Int, logger: Logger) {
        self.client = client
        self.broadcaster = broadcaster
        self.lifetime = lifetime
        self.logger = logger
        self.tasks.run { await self.heartbeat() }
    }

    func changed(_ user: UUID, online: Bool, lastSeen: Date?) async {
        do {
            let news = try await self.client.withTransaction(logger: self.logger) { connection in
                try await self.lock(user, on: connection)
                if online {
                    try await connection.query(
                        """
                        INSERT INTO presence (instance, account, expires_at)
                        VALUES (\(self.instance), \(user), now() + make_interval(secs => \(self.lifetime)))
                        ON CONFLICT (account, instance) DO UPDATE SET expires_at = EXCLUDED.expires_at
                        """, logger: self.logger)
                } else {
                    try await connection.query(
                        "DELETE FROM presence WHERE account = \(user) AND instance = \(self.instance)",
                        logger: self.logger)
                }
                let rows = try await Self.liveRows(of: user, on: connection, logger: self.logger)
                // Online: this row is the only one. Offline: none is left.
                guard rows == (online ? 1 : 0) else { return false }
                try await self.notify(user, online: online, lastSeen: lastSeen, on: connection)
                return true
            }
            if news { await self.broadcaster.announce(user, online: online, lastSeen: lastSeen) }
        } catch {
            self.logger.warning(
                "could not record that \(user) went \(online ? "online" : "offline") here: \(String(reflecting: error))"
            )
        }
    }

    func online(among users: Set<UUID>, here: Set<UUID>) async -> Set<UUID> {
        guard !users.isEmpty else { return [] }
        do {
            let rows = try await self.client.query(
                "SELECT DISTINCT account FROM presence WHERE account = ANY(\(Array(users))) AND expires_at > now()",
                logger: self.logger)
            var online = here
            for try await account in rows.decode(UUID.self) { online.insert(account) }
            return online
        } catch {
            self.logger.warning("could not read who is online on other nodes: \(String(reflecting: error))")
            return here
        }
    }

    /// Another node's announcement, for this node's connections; this node's own are ignored (already pushed).
    func apply(_ text: String) async {
        guard let payload = try? JSONDecoder().decode(Payload.self, from: Data(text.utf8)),
            payload.origin != self.instance
        else { return }
        let lastSeen = payload.lastSeen.map { Date(timeIntervalSince1970: Double($0) / 1000) }
        await self.broadcaster.push(payload.user, online: payload.online, lastSeen: lastSeen)
    }

    func close() async {
        await self.tasks.close()
    }

    /// Every quarter of the lifetime: this process's rows live on, and rows no process refreshed are swept.
    private func heartbeat() async {
        let interval = Duration.seconds(self.lifetime) / 4
        while !Task.isCancelled {
            do {
                try await self.client.query(
                    """
                    UPDATE presence SET expires_at = now() + make_interval(secs => \(self.lifetime))
                    WHERE instance = \(self.instance)
                    """, logger: self.logger)
                try await self.sweep()
            } catch {
                self.logger.warning("could not refresh presence: \(String(reflecting: error))")
            }
            try? await Task.sleep(for: interval)
        }
    }

    /// Deletes expired rows; an account left with none is announced offline, by whichever node deleted its row.
    private func sweep() async throws {
        let rows = try await self.client.query(
            "DELETE FROM presence WHERE expires_at <= now() RETURNING account", logger: self.logger)
        var accounts: Set<UUID> = []
        for try await account in rows.decode(UUID.self) { accounts.insert(account) }
        for user in accounts {
            let lastSeen = Date()
            let news = try await self.client.withTransaction(logger: self.logger) { connection in
                try await self.lock(user, on: connection)
                guard try await Self.liveRows(of: user, on: connection, logger: self.logger) == 0 else { return false }
                try await self.notify(user, online: false, lastSeen: lastSeen, on: connection)
                return true
            }
            if news { await self.broadcaster.announce(user, online: false, lastSeen: lastSeen) }
        }
    }

    private func lock(_ user: UUID, on connection: PostgresConnection) async throws {
        try await connection.query(
            "SELECT pg_advisory_xact_lock(\(Self.lockSpace), hashtext(\(user.uuidString)))", logger: self.logger)
    }

    private static func liveRows(of user: UUID, on connection: PostgresConnection, logger: Logger) async throws -> Int64
    {
        let rows = try await connection.query(
            "SELECT count(*) FROM presence WHERE account = \(user) AND expires_at > now()", logger: logger)
        for try await count in rows.decode(Int64.self) { return count }
        return 0
    }

    /// Queued in the transaction: sent to every listening node when it commits.
    private func notify(_ user: UUID, online: Bool, lastSeen: Date?, on connection: PostgresConnection) async throws {
        let payload = Payload(
            origin: self.instance, user: user, online: online,
            lastSeen: lastSeen.map { Int64(($0.timeIntervalSince1970 * 1000).rounded()) })
        let text = String(decoding: try JSONEncoder().encode(payload), as: UTF8.self)
        try await connection.query("SELECT pg_notify(\(Self.channel), \(text))", logger: self.logger)
    }
}
