import ChatCore
import ChatPersistence
import ChatUseCases
import Fluent
import FluentPostgresDriver
import NIOConcurrencyHelpers
import PostgresNIO
import SQLKit
import Vapor

/// A PostgreSQL database that several nodes share (ARCHITECTURE.md §4.2): one PostgresNIO client (a pool) that
/// Fluent reads through and ``PostgresEventWriter`` writes through, migrations run under an advisory lock so that
/// nodes starting together do not race, a ``CommitFollower`` that brings the other nodes' commits (and receipts and
/// typing notices, ``PostgresSignalRelay``) to this node's rooms.
final class PostgresStorage: ServerStorage {
    let messages: any MessageStore
    let search: any MessageSearch
    let pins: any PinnedMessages
    private let signals: PostgresSignalRelay
    var relay: any RoomSignalRelay { self.signals }
    private let client: PostgresClient
    /// The notifications on their way to other nodes (receipts, typing, membership changes, revoked tokens).
    private let notifications = BackgroundTasks()
    private let running: Task<Void, Never>
    /// What ``follow(_:configuration:)`` started, stopped by ``close()``.
    private let follower = NIOLockedValueBox<(CommitFollower, PostgresPresence, PostgresEchoRelay)?>(nil)
    private let logger: Logger

    /// How long a message-store call may take before the room gives up on it (far beyond any healthy commit).
    static let storeDeadline = Duration.seconds(15)

    /// Any number that no other application on the same database uses as an advisory lock key.
    static let migrationLock: Int64 = 0x5377_6966_7443_6861  // "SwiftCha"
    /// The advisory lock of the node that runs the demo bot.
    static let oneNodeLock: Int64 = 0x5377_6966_7442_6F74  // "SwiftBot"

    private init(
        client: PostgresClient, running: Task<Void, Never>, database: any Database, sendLimit: SendLimitRule,
        logger: Logger
    ) throws {
        guard let sql = database as? any SQLDatabase else { throw ChatServiceError.searchNeedsSQL }
        self.client = client
        self.running = running
        self.logger = logger
        // PostgresNIO can leave a query waiting for ever when its connection dies under it (a database restart):
        // no room may wait for ever behind such a commit.
        let store = FluentMessageStore(
            database: database,
            writer: PostgresEventWriter(
                client: client, logger: logger, deadline: Self.storeDeadline, sendLimit: sendLimit))
        self.messages = DeadlineMessageStore(store, limit: Self.storeDeadline)
        self.pins = store
        self.search = PostgresMessageSearch(database: sql)
        self.signals = PostgresSignalRelay(client: client, background: self.notifications, logger: logger)
    }

    /// Every account's send is checked by ``PostgresEventWriter`` as its batch commits, against the rule it was
    /// opened with: the limit all nodes share.
    let checksSendsAtCommit = true

    /// Every call within the store's deadline (``DeadlineRoomDirectory``), for the reason the message store has one.
    func roomDirectory(_ database: any Database) -> any RoomDirectory {
        DeadlineRoomDirectory(FluentRoomDirectory(database: database, postgres: self.client), limit: Self.storeDeadline)
    }

    var readinessChecks: [String: String] {
        self.follower.withLockedValue { $0?.0.readinessChecks } ?? [
            "listener": "reconnecting", "news_listener": "reconnecting",
        ]
    }

    /// Connects once to say clearly why the database cannot be used (unreachable, refused, wrong password), then
    /// starts the pool, registers it with Fluent and migrates. `sendLimit` is every account's, shared by the nodes;
    /// a server passes its `metrics` to have the pool among them (the tools pass `nil`).
    static func open(
        _ application: Application, url: DatabaseURL, sendLimit: SendLimitRule, metrics: ServerMetrics?,
        logger: Logger
    ) async throws -> PostgresStorage {
        let configuration = url.clientConfiguration()
        let pool = metrics.map {
            PostgresPoolMetrics(factory: $0.factory, maximumConnections: configuration.options.maximumConnections)
        }
        let client = PostgresClient(
            configuration: configuration, backgroundLogger: pool?.logger(wrapping: logger) ?? logger)
        let running = Task { await client.run() }
        do {
            // First, so that the pool's `run()` has started by the first lease (PostgresNIO warns otherwise).
            try await Self.check(url, on: application.eventLoopGroup.next(), logger: logger)
            application.databases.use(.postgres(client: client, sqlLogLevel: .trace, logger: logger), as: .psql)
            application.migrations.add(ChatMigrations.all)
            try await client.withConnection { connection in
                // Session-level: held on this connection while the migrations run on others of the pool; a node
                // starting at the same moment waits here, then finds nothing left to do.
                try await connection.query("SELECT pg_advisory_lock(\(Self.migrationLock))", logger: logger)
                do {
                    try await application.autoMigrate()
                } catch {
                    _ = try? await connection.query("SELECT pg_advisory_unlock(\(Self.migrationLock))", logger: logger)
                    throw error
                }
                try await connection.query("SELECT pg_advisory_unlock(\(Self.migrationLock))", logger: logger)
            }
            return try PostgresStorage(
                client: client, running: running, database: application.db, sendLimit: sendLimit, logger: logger)
        } catch {
            running.cancel()
            await running.value
            throw error
        }
    }

    /// One connection outside the pool (whose connection attempts retry quietly): its failure names the setting
    /// and the URL without its password.
    private static func check(_ url: DatabaseURL, on eventLoop: any EventLoop, logger: Logger) async throws {
        do {
            let connection = try await PostgresConnection.connect(
                on: eventLoop, configuration: try url.connectionConfiguration(), id: 0, logger: logger
            ).get()
            try? await connection.close()
        } catch {
            var reason = String(reflecting: error)
            if let password = url.password, !password.isEmpty {
                reason = reason.replacingOccurrences(of: password, with: "***")
            }
            throw ChatServiceError.databaseUnavailable(url: url.description, reason: reason)
        }
    }

    func follow(_ local: LocalReach, configuration: ServerConfiguration) -> NodeLinks {
        let live = PostgresLiveSessions(
            local: local.sessions, client: self.client, background: self.notifications, logger: self.logger)
        let presence = PostgresPresence(
            client: self.client, broadcaster: local.presence, lifetime: configuration.presenceTTL, logger: self.logger)
        let echo = PostgresEchoRelay(
            client: self.client, audience: local.echo, maxQueuedBytes: 2 * configuration.echoMaxMessageBytes,
            logger: self.logger)
        local.echo.link(echo)
        let follower = CommitFollower.start(
            client: self.client, hub: local.hub,
            peers: CommitFollower.Peers(signals: self.signals, sessions: live, presence: presence, echo: echo),
            logger: self.logger)
        self.follower.withLockedValue { $0 = (follower, presence, echo) }
        return NodeLinks(sessions: live, presence: presence)
    }

    func attachmentContents(_ files: AttachmentFiles, configuration: ServerConfiguration) -> any AttachmentContents {
        guard configuration.attachmentsStore == "postgres" else { return files }
        return PostgresAttachmentContents(client: self.client, threadPool: files.threadPool, logger: self.logger)
    }

    func runOnOneNode(_ service: any OneNodeService) async -> OneNodeRun {
        OneNodeRun.elected(service, key: Self.oneNodeLock, client: self.client, logger: self.logger)
    }

    func close() async {
        if let (follower, presence, echo) = self.follower.withLockedValue({ $0 }) {
            await follower.close()
            await presence.close()
            await echo.close()
        }
        await self.notifications.close()
        self.running.cancel()
        // The client's run() ends once every connection is back; a query PostgresNIO never answers (its connection
        // died under it, and the call was abandoned by its deadline) keeps one leased for ever. The client lives on
        // NIO's shared event loops, not the server's, so it may be left behind.
        let running = self.running
        if (try? await Deadline.run(within: .seconds(5)) { await running.value }) == nil {
            self.logger.warning("the database client did not stop within 5 s (a query on a lost connection); going on")
        }
    }
}
