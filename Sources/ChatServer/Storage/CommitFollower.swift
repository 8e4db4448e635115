import ChatCore
import ChatPersistence
import Logging
import NIOConcurrencyHelpers
import PostgresNIO

/// Brings other nodes' commits to this node's open rooms. ``PostgresEventWriter`` queues a `NOTIFY` of
/// `LASTSEQ:ROOM` with every batch; this listens on one connection of its own and passes each to the hub
/// (``Hub/catchUp(_:to:)``: the room reads what it has not delivered from the database, in order).
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

    static func start(client: PostgresClient, hub: Hub, logger: Logger) -> CommitFollower {
        let listening = NIOLockedValueBox(false)
        let listen = Task { await Self.listen(client: client, hub: hub, listening: listening, logger: logger) }
        let reconcile = Task { await Self.reconcile(client: client, hub: hub, logger: logger) }
        return CommitFollower(listening: listening, tasks: [listen, reconcile])
    }

    func close() async {
        for task in self.tasks {
            task.cancel()
            await task.value
        }
    }

    private static func listen(
        client: PostgresClient, hub: Hub, listening: NIOLockedValueBox<Bool>, logger: Logger
    ) async {
        while !Task.isCancelled {
            do {
                try await client.withConnection { connection in
                    try await connection.listen(on: PostgresEventWriter.channel) { notifications in
                        listening.withLockedValue { $0 = true }
                        // Whatever was committed while no one listened.
                        await Self.catchUpOpenRooms(client: client, hub: hub, logger: logger)
                        for try await notification in notifications {
                            guard let (room, seq) = Self.parse(notification.payload) else { continue }
                            await hub.catchUp(room, to: seq)
                        }
                    }
                }
            } catch {
                if Task.isCancelled { break }
                logger.warning(
                    "lost the database's commit notifications; listening again: \(String(reflecting: error))")
            }
            listening.withLockedValue { $0 = false }
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
