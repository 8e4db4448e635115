import ChatCore
import ChatPersistence
import Logging
import NIOConcurrencyHelpers
import PostgresNIO

/// Brings other nodes' commits to this node's open rooms. ``PostgresEventWriter`` queues a `NOTIFY` of
/// `LASTSEQ:ROOM` with every batch; this listens on one connection of its own and passes each to the hub
/// (``Hub/catchUp(_:to:)``: the room reads what it has not delivered from the database, in order). On a second
/// connection it receives the receipts and typing notices other nodes' rooms relayed (``PostgresSignalRelay``), on a
/// third the membership changes and revoked tokens of other nodes (``PostgresLiveSessions``).
///
/// Notifications are hints, not the data: one lost (the listening connection dropped and came back, a node busy
/// at the wrong moment) is healed by the reconcile that runs every ``reconcileInterval``, which reads the last
/// `seq` of every open room and catches each up. A connection that fails is opened again after a short wait.
final class CommitFollower: Sendable {
    /// How often every open room is compared with the database, whatever the notifications said.
    static let reconcileInterval = Duration.seconds(1)

    private let listening: NIOLockedValueBox<Bool>
    private let tasks: [Task<Void, Never>]

    /// Whether the listening connection is up (for `/readyz`).
    var isListening: Bool { self.listening.withLockedValue { $0 } }

    private init(listening: NIOLockedValueBox<Bool>, tasks: [Task<Void, Never>]) {
        self.listening = listening
        self.tasks = tasks
    }

    static func start(
        client: PostgresClient, hub: Hub, signals: PostgresSignalRelay, sessions: PostgresLiveSessions, logger: Logger
    ) -> CommitFollower {
        let listening = NIOLockedValueBox(false)
        let commits = Task {
            await Self.listen(on: PostgresEventWriter.channel, client: client, listening: listening, logger: logger) {
                // Whatever was committed while no one listened.
                await Self.catchUpOpenRooms(client: client, hub: hub, logger: logger)
            } handle: { payload in
                guard let (room, seq) = Self.parse(payload) else { return }
                await hub.catchUp(room, to: seq)
            }
        }
        // Receipts and typing are ephemeral: what was sent while no one listened is gone, as on one node.
        let relayed = Task {
            await Self.listen(on: PostgresSignalRelay.channel, client: client, listening: nil, logger: logger) {
            } handle: { payload in
                guard let signal = signals.signal(in: payload) else { return }
                await hub.deliverRelayed(signal)
            }
        }
        let membership = Task {
            await Self.listen(on: PostgresLiveSessions.channel, client: client, listening: nil, logger: logger) {
            } handle: { payload in
                await sessions.apply(payload)
            }
        }
        let reconcile = Task { await Self.reconcile(client: client, hub: hub, logger: logger) }
        return CommitFollower(listening: listening, tasks: [commits, relayed, membership, reconcile])
    }

    func close() async {
        for task in self.tasks {
            task.cancel()
            await task.value
        }
    }

    /// Listens on `channel` on a pooled connection of its own, runs `connected` each time the connection is up, and
    /// hands every payload to `handle`; opens the connection again after a short wait when it fails.
    private static func listen(
        on channel: String, client: PostgresClient, listening: NIOLockedValueBox<Bool>?, logger: Logger,
        connected: @escaping @Sendable () async -> Void, handle: @escaping @Sendable (String) async -> Void
    ) async {
        while !Task.isCancelled {
            do {
                try await client.withConnection { connection in
                    try await connection.listen(on: channel) { notifications in
                        listening?.withLockedValue { $0 = true }
                        await connected()
                        for try await notification in notifications {
                            await handle(notification.payload)
                        }
                    }
                }
            } catch {
                if Task.isCancelled { break }
                logger.warning(
                    "lost the database's notifications on \(channel); listening again: \(String(reflecting: error))")
            }
            listening?.withLockedValue { $0 = false }
            try? await Task.sleep(for: .milliseconds(250))
        }
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
            let rows = try await client.query(
                "SELECT room, last_seq FROM room_sequences WHERE room = ANY(\(rooms))", logger: logger)
            for try await (room, seq) in rows.decode((String, Int64).self) {
                await hub.catchUp(RoomID(room), to: seq)
            }
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
