import ChatCore
import ChatPersistence
import ChatTestSupport
import FluentKit
import FluentPostgresDriver
import Logging
import NIOPosix
import PostgresNIO

/// A new database on the test process's PostgreSQL server (``TestPostgres``), migrated, opened the way a node opens
/// it: one PostgresNIO client that Fluent reads through and the ``PostgresEventWriter`` writes through.
struct MigratedPostgresDatabase: Sendable {
    let store: FluentMessageStore
    /// The store's writer, to see how many batches wait for it.
    let writer: PostgresEventWriter
    let client: PostgresClient
    let database: any Database
    let close: @Sendable () async -> Void

    /// - Parameter sendLimit: when given, the writer checks every account's send as it commits, as a server's does.
    static func open(sendLimit: SendLimitRule? = nil) async throws -> MigratedPostgresDatabase {
        let server = try await TestPostgres.shared()
        let (_, url) = try await server.makeDatabase()
        let logger = Logger(label: "store-test")
        let client = PostgresClient(configuration: try DatabaseURL(url).clientConfiguration())
        let running = Task { await client.run() }
        let databases = Databases(threadPool: NIOThreadPool.singleton, on: MultiThreadedEventLoopGroup.singleton)
        databases.use(.postgres(client: client, sqlLogLevel: .trace, logger: logger), as: .psql)
        let database = try await migrateDefaultDatabase(
            of: databases, logger: logger, on: MultiThreadedEventLoopGroup.singleton.next())
        let writer = PostgresEventWriter(client: client, logger: logger, deadline: .seconds(15), sendLimit: sendLimit)
        return MigratedPostgresDatabase(
            store: FluentMessageStore(database: database, writer: writer), writer: writer, client: client,
            database: database
        ) {
            await databases.shutdownAsync()
            running.cancel()
            await running.value
        }
    }
}

/// The same contract on PostgreSQL.
let postgresFixture = StoreFixture(name: "PostgreSQL") {
    let database = try await MigratedPostgresDatabase.open()
    return (database.store, database.close)
}
