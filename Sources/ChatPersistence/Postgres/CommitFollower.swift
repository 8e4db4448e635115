import ChatCore
import ChatUseCases
import Logging
import NIOConcurrencyHelpers
import PostgresNIO

/// Brings other nodes' news to this node. ``PostgresEventWriter`` queues a `NOTIFY` of `LASTSEQ:ROOM` with every
/// batch; this listens on one connection of its own and passes each to the hub (``Hub/catchUp(_:to:)``: the room
/// reads what it has not delivered from the database, in order). On a second connection it receives the ephemeral
/// news, each kind on a channel of its own: receipts and typing notices (``PostgresSignalRelay``), membership changes
/// and revoked tokens (``PostgresLiveSessions``), presence (``PostgresPresence``) and `/echo` frames
/// (``PostgresEchoRelay``).
///
/// Notifications are hints, not the data: one lost (the listening connection dropped and came back, a node busy
/// at the wrong moment) is healed by the reconcile that runs every ``reconcileInterval``, which reads the last
/// `seq` of every open room and catches each up. A connection that fails is opened again after a short wait.
public final class CommitFollower: Sendable {
    /// How often every open room is compared with the database, whatever the notifications said.
    static let reconcileInterval = Duration.seconds(1)
    /// How many notifications may wait for their handler on one listening connection; beyond that they are dropped
    /// (commits are then caught up by the reconcile; ephemeral news is lost, as it would be while reconnecting).
    static let maxWaitingNotifications = 10_000
    /// How long one ephemeral notification's handling (a query for a presence change's roommates, a session's
    /// rooms) may take before the listener gives up on it and goes on with the next.
    static let handlerDeadline = Duration.seconds(5)

    private let commitsListening: NIOLockedValueBox<Bool>
    private let newsListening: NIOLockedValueBox<Bool>
    private let tasks: [Task<Void, Never>]

    /// Whether each listening connection is up (for `/readyz`).
    public var readinessChecks: [String: String] {
        [
            "listener": self.commitsListening.withLockedValue { $0 } ? "ok" : "reconnecting",
            "news_listener": self.newsListening.withLockedValue { $0 } ? "ok" : "reconnecting",
        ]
    }

    private init(
        commitsListening: NIOLockedValueBox<Bool>, newsListening: NIOLockedValueBox<Bool>, tasks: [Task<Void, Never>]
    ) {
        self.commitsListening = commitsListening
        self.newsListening = newsListening
        self.tasks = tasks
    }

    /// What carries the other nodes' ephemeral news, each on a channel of its own.
    public struct Peers: Sendable {
        let signals: PostgresSignalRelay
        let sessions: PostgresLiveSessions
        let presence: PostgresPresence
        let echo: PostgresEchoRelay

        public init(
            signals: PostgresSignalRelay, sessions: PostgresLiveSessions, presence: PostgresPresence,
            echo: PostgresEchoRelay
        ) {
            self.signals = signals
            self.sessions = sessions
            self.presence = presence
            self.echo = echo
        }
    }

    /// Delivers other nodes' commits to `hub`'s open rooms and their ephemeral news to `peers`.
    public static func start(client: PostgresClient, hub: Hub, peers: Peers, logger: Logger) -> CommitFollower {
        let commitsListening = NIOLockedValueBox(false)
        let newsListening = NIOLockedValueBox(false)
        let commits = Task {
            await Self.listen(
                on: [PostgresEventWriter.channel], client: client, listening: commitsListening, logger: logger
            ) {
                // Whatever was committed while no one listened.
                await Self.catchUpOpenRooms(client: client, hub: hub, logger: logger)
            } handle: { _, payload in
                // The room's reads go through the message store, which has a deadline of its own.
                guard let (room, seq) = Self.parse(payload) else { return }
                await hub.catchUp(room, to: seq)
            }
        }
        // Receipts, typing, membership changes, presence and `/echo` frames are ephemeral: what was sent while no one
        // listened is gone for this node (its clients catch up on rooms at their next resume).
        let ephemeral = [
            PostgresSignalRelay.channel, PostgresLiveSessions.channel, PostgresPresence.channel,
            PostgresEchoRelay.channel,
        ]
        let news = Task {
            await Self.listen(on: ephemeral, client: client, listening: newsListening, logger: logger) {
            } handle: { channel, payload in
                // `/echo` frames are read back by a consumer of their own, so that large frames never hold up a
                // receipt or a typing notice.
                if channel == PostgresEchoRelay.channel {
                    peers.echo.announced(payload)
                    return
                }
                do {
                    try await Deadline.run(within: Self.handlerDeadline) {
                        switch channel {
                        case PostgresSignalRelay.channel:
                            if let signal = peers.signals.signal(in: payload) { await hub.deliverRelayed(signal) }
                        case PostgresLiveSessions.channel: await peers.sessions.apply(payload)
                        case PostgresPresence.channel: await peers.presence.apply(payload)
                        default: break
                        }
                    }
                } catch is CancellationError {
                    // The node is stopping.
                } catch {
                    logger.warning("gave up on a notification on \(channel): \(String(reflecting: error))")
                }
            }
        }
        let reconcile = Task { await Self.reconcile(client: client, hub: hub, logger: logger) }
        return CommitFollower(
            commitsListening: commitsListening, newsListening: newsListening, tasks: [commits, news, reconcile])
    }

    public func close() async {
        for task in self.tasks {
            task.cancel()
            await task.value
        }
    }

    /// Listens on `channels` on a pooled connection of its own (closed afterwards), runs `connected` each time the connection is up,
    /// and hands every notification to `handle` (channel, payload), one after the other, in the order they came;
    /// opens the connection again after a short wait when it fails.
    private static func listen(
        on channels: [String], client: PostgresClient, listening: NIOLockedValueBox<Bool>, logger: Logger,
        connected: @escaping @Sendable () async -> Void, handle: @escaping @Sendable (String, String) async -> Void
    ) async {
        while !Task.isCancelled {
            do {
                try await client.withConnection { connection in
                    // Never given back to the pool: when the database ends a listening connection, the pool could
                    // lease it again before it saw it close, and PostgresNIO may never answer a query sent on it
                    // (a membership check then waited out its 15 s deadline).
                    do {
                        try await Self.listen(
                            on: channels, connection: connection, listening: listening, logger: logger,
                            connected: connected, handle: handle)
                    } catch {
                        try? await connection.close()
                        throw error
                    }
                    try? await connection.close()
                }
            } catch {
                if Task.isCancelled { break }
                logger.warning(
                    "lost the database's notifications on \(channels.joined(separator: ", ")); listening again: \(String(reflecting: error))"
                )
            }
            listening.withLockedValue { $0 = false }
            try? await Task.sleep(for: .milliseconds(250))
        }
    }

    /// Listens on `channels` on `connection` until one of them fails or ends.
    private static func listen(
        on channels: [String], connection: PostgresConnection, listening: NIOLockedValueBox<Bool>, logger: Logger,
        connected: @escaping @Sendable () async -> Void, handle: @escaping @Sendable (String, String) async -> Void
    ) async throws {
        let (events, arrived) = AsyncStream.makeStream(
            of: ListenerEvent.self, bufferingPolicy: .bufferingOldest(Self.maxWaitingNotifications))
        let dropped = NIOLockedValueBox(0)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for channel in channels {
                group.addTask {
                    try await connection.listen(on: channel) { notifications in
                        arrived.yield(.listening)
                        for try await notification in notifications {
                            let event = ListenerEvent.notification(
                                channel: channel, payload: notification.payload)
                            if case .dropped = arrived.yield(event) {
                                dropped.withLockedValue { $0 += 1 }
                            }
                        }
                    }
                }
            }
            group.addTask {
                var waitingFor = channels.count
                for await event in events {
                    switch event {
                    case .listening:
                        waitingFor -= 1
                        guard waitingFor == 0 else { continue }
                        listening.withLockedValue { $0 = true }
                        await connected()
                    case .notification(let channel, let payload):
                        let lost = dropped.withLockedValue { count in
                            defer { count = 0 }
                            return count
                        }
                        if lost > 0 {
                            logger.warning(
                                "dropped \(lost) notifications on \(channels.joined(separator: ", ")): this node is behind"
                            )
                        }
                        await handle(channel, payload)
                    }
                }
            }
            // The first listener to fail (its connection lost) takes the others down with it.
            try await group.next()
            group.cancelAll()
        }
    }

    private enum ListenerEvent: Sendable {
        /// One more of the channels is listened to.
        case listening
        case notification(channel: String, payload: String)
    }

    private static func reconcile(client: PostgresClient, hub: Hub, logger: Logger) async {
        while !Task.isCancelled {
            try? await Task.sleep(for: Self.reconcileInterval)
            if Task.isCancelled { break }
            await Self.catchUpOpenRooms(client: client, hub: hub, logger: logger)
        }
    }

    /// Reads the last `seq` of every room open on this node and catches each up.
    private static func catchUpOpenRooms(client: PostgresClient, hub: Hub, logger: Logger) async {
        let rooms = await hub.openRoomIDs.map(\.rawValue)
        guard !rooms.isEmpty else { return }
        do {
            // Within a deadline: a query on a connection that died under it may never answer (a database restart),
            // and the next reconcile, or a shutdown, must not wait behind it.
            let sequences = try await Deadline.run(within: Self.handlerDeadline) {
                let rows = try await client.query(
                    "SELECT room, last_seq FROM room_sequences WHERE room = ANY(\(rooms))", logger: logger)
                var sequences: [(String, Int64)] = []
                for try await row in rows.decode((String, Int64).self) { sequences.append(row) }
                return sequences
            }
            for (room, seq) in sequences { await hub.catchUp(RoomID(room), to: seq) }
        } catch {
            logger.warning("could not compare the open rooms with the database: \(String(reflecting: error))")
        }
    }

    /// `LASTSEQ:ROOM` (the room's id may itself hold colons).
    static func parse(_ payload: String) -> (RoomID, Int64)? {
        guard let colon = payload.firstIndex(of: ":"), let seq = Int64(payload[..<colon]) else { return nil }
        return (RoomID(String(payload[payload.index(after: colon)...])), seq)
    }
}
