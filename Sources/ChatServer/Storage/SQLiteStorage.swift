import ChatCore
import ChatPersistence
import ChatUseCases
import Fluent
import FluentSQLiteDriver
import SQLKit
import Vapor

/// One SQLite file in the data directory, written by this process alone: the data directory's lock keeps a second
/// server off it, and every message write goes through one connection (ARCHITECTURE.md §4).
struct SQLiteStorage: ServerStorage {
    let store: FluentMessageStore
    let search: any MessageSearch
    var messages: any MessageStore { self.store }
    var pins: any PinnedMessages { self.store }
    /// One node: this node's own limit is the limit, checked before the room.
    let checksSendsAtCommit = false
    private let writer: SQLiteWriteConnection
    private let lock: DataDirectoryLock

    var readinessChecks: [String: String] { [:] }

    func attachmentContents(_ files: AttachmentFiles, configuration: ServerConfiguration) -> any AttachmentContents {
        files
    }
    var relay: any RoomSignalRelay { NoRelay() }

    func roomDirectory(_ database: any Database) -> any RoomDirectory { FluentRoomDirectory(database: database) }

    /// Creates the data directory and takes its lock, then migrates the database and opens the connection all
    /// message writes go through.
    static func open(
        _ application: Application, configuration: ServerConfiguration, metrics: ServerMetrics, logger: Logger
    ) async throws -> SQLiteStorage {
        try DataDirectory.prepare(configuration.dataDirectory, database: configuration.databasePath)
        let lock = try DataDirectoryLock(directory: configuration.dataDirectory)
        do {
            // No SQL in the log: its bound values are message texts, password digests and token digests.
            application.databases.use(.sqlite(.file(configuration.databasePath), sqlLogLevel: nil), as: .sqlite)
            try await SQLiteLockWaits.apply(
                to: application.databases, .sqlite, eventLoops: application.eventLoopGroup, logger: logger)
            application.migrations.add(ChatMigrations.all)
            try await application.autoMigrate()
            guard let sql = application.db as? any SQLDatabase else { throw ChatServiceError.searchNeedsSQL }
            let writer = try await SQLiteWriteConnection.open(
                path: configuration.databasePath, durability: configuration.durability,
                threadPool: application.threadPool, on: application.eventLoopGroup.next(), logger: logger,
                waits: metrics.writerWait)
            do {
                // Messages a crash left out of the search index (it follows the commits: IndexSearchAfterCommit),
                // or all of them after the index was made anew (IndexSearchTokens).
                try await writer.writer.catchUpSearchIndex(logger: logger)
            } catch {
                await writer.close()
                throw error
            }
            return SQLiteStorage(
                store: FluentMessageStore(database: application.db, writer: writer.writer),
                search: SQLiteMessageSearch(database: sql, writer: writer.writer),
                writer: writer, lock: lock)
        } catch {
            lock.release()
            throw error
        }
    }

    func follow(_ local: LocalReach, configuration: ServerConfiguration) -> NodeLinks {
        NodeLinks(sessions: local.sessions, presence: LocalPresenceAnnouncer(broadcaster: local.presence))
    }

    func runOnOneNode(_ service: any OneNodeService) async -> OneNodeRun {
        await OneNodeRun.here(service)
    }

    func close() async {
        await self.writer.close()
        self.lock.release()
    }
}
