import ChatCore
import Logging
import NIOConcurrencyHelpers
import PostgresNIO

/// Something that must run on one node at a time, such as the demo bot (two bots on one account would each
/// reset its password on start, signing the other out, and both would answer every message).
public protocol OneNodeService: Sendable {
    func start() async
    func stop() async
}

/// A ``OneNodeService`` as this node runs it: at once on SQLite, where this node is the only one; on PostgreSQL,
/// whenever this node holds the service's advisory lock (the server storage's `runOnOneNode`).
public final class OneNodeRun: Sendable {
    private let stopping: @Sendable () async -> Void

    init(stopping: @escaping @Sendable () async -> Void) {
        self.stopping = stopping
    }

    /// Stops the service here (and lets another node take it over).
    public func stop() async {
        await self.stopping()
    }

    /// On the one node there is.
    public static func here(_ service: any OneNodeService) async -> OneNodeRun {
        await service.start()
        return OneNodeRun { await service.stop() }
    }

    /// On the node that takes PostgreSQL's session-level advisory lock `key`: every node tries every
    /// ``retryInterval``; the holder runs the service for as long as the connection holding the lock answers a
    /// check every ``checkInterval`` within ``checkInterval``. When that node stops or dies, or its connection does
    /// (a database restart), PostgreSQL releases the lock and another node takes over.
    ///
    /// Two nodes must not run it at once, even for a moment: a holder whose connection died notices within two
    /// check intervals (a check that fails, or one that hangs past its deadline), so a node that takes the lock
    /// waits that long, still holding it and checking it, before it starts the service.
    public static func elected(
        _ service: any OneNodeService, key: Int64, client: PostgresClient, logger: Logger
    ) -> OneNodeRun {
        let task = Task {
            while !Task.isCancelled {
                do {
                    try await client.withConnection { connection in
                        let check: @Sendable (String) async throws -> [Bool] = { query in
                            try await Deadline.run(within: Self.checkInterval) {
                                let rows = try await connection.query(PostgresQuery(unsafeSQL: query), logger: logger)
                                var answers: [Bool] = []
                                for try await answer in rows.decode(Bool.self) { answers.append(answer) }
                                return answers
                            }
                        }
                        guard try await check("SELECT pg_try_advisory_lock(\(key))") == [true] else { return }
                        var started = false
                        var checks = 0
                        do {
                            while !Task.isCancelled {
                                try await Task.sleep(for: Self.checkInterval)
                                _ = try await check("SELECT true")
                                checks += 1
                                if !started, checks >= 2 {
                                    await service.start()
                                    started = true
                                }
                            }
                        } catch {}
                        if started { await service.stop() }
                        // In a task of its own: a node stopping has cancelled this one, and the lock must still go.
                        await Task { _ = try? await check("SELECT pg_advisory_unlock(\(key))") }.value
                    }
                } catch {
                    if Task.isCancelled { break }
                    logger.warning(
                        "could not ask the database which node runs \(type(of: service)): \(String(reflecting: error))")
                }
                try? await Task.sleep(for: Self.retryInterval)
            }
        }
        return OneNodeRun {
            task.cancel()
            await task.value
        }
    }

    /// How often a node without the service asks for it.
    static let retryInterval = Duration.seconds(2)
    /// How often the node with the service checks that it still holds it, and how long each check may take.
    static let checkInterval = Duration.milliseconds(500)
}
