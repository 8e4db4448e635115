import DemoBot
import Logging
import NIOConcurrencyHelpers
import PostgresNIO

/// Something that must run on one node at a time, such as the demo bot (two bots on one account would each
/// reset its password on start, signing the other out, and both would answer every message).
protocol OneNodeService: Sendable {
    func start() async
    func stop() async
}

extension EchoBot: OneNodeService {}

/// A ``OneNodeService`` as this node runs it: at once on SQLite, where this node is the only one; on PostgreSQL,
/// whenever this node holds the service's advisory lock (``PostgresStorage/runOnOneNode(_:)``).
final class OneNodeRun: Sendable {
    private let stopping: @Sendable () async -> Void

    init(stopping: @escaping @Sendable () async -> Void) {
        self.stopping = stopping
    }

    /// Stops the service here (and lets another node take it over).
    func stop() async {
        await self.stopping()
    }

    /// On the one node there is.
    static func here(_ service: any OneNodeService) async -> OneNodeRun {
        await service.start()
        return OneNodeRun { await service.stop() }
    }

    /// On the node that takes PostgreSQL's session-level advisory lock `key`: every node tries every
    /// ``retryInterval``; the holder runs the service for as long as the connection holding the lock answers. When
    /// that node stops or dies, PostgreSQL releases the lock with its session and another node takes over.
    static func elected(
        _ service: any OneNodeService, key: Int64, client: PostgresClient, logger: Logger
    ) -> OneNodeRun {
        let task = Task {
            while !Task.isCancelled {
                do {
                    try await client.withConnection { connection in
                        let rows = try await connection.query("SELECT pg_try_advisory_lock(\(key))", logger: logger)
                        var elected = false
                        for try await taken in rows.decode(Bool.self) { elected = taken }
                        guard elected else { return }
                        await service.start()
                        do {
                            while !Task.isCancelled {
                                try await Task.sleep(for: Self.retryInterval)
                                try await connection.query("SELECT 1", logger: logger)
                            }
                        } catch {}
                        await service.stop()
                        _ = try? await connection.query("SELECT pg_advisory_unlock(\(key))", logger: logger)
                    }
                } catch {
                    logger.warning(
                        "could not ask the database which node runs the demo bot: \(String(reflecting: error))")
                }
                try? await Task.sleep(for: Self.retryInterval)
            }
        }
        return OneNodeRun {
            task.cancel()
            await task.value
        }
    }

    /// How often a node without the service asks for it, and the node with it checks it still holds it.
    static let retryInterval = Duration.seconds(2)
}
