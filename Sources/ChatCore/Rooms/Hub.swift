import Logging
import NIOCore

/// The registry of open rooms. Each room is opened (its sequence and recent history read from the store) once,
/// on first use, on the next event loop of the group; concurrent first uses share the same opening.
public actor Hub {
    private let eventLoops: any EventLoopGroup
    /// Where the rooms commit their messages; history reads go to it directly.
    public nonisolated let store: any MessageStore
    private let recentCapacity: Int
    private let metrics: RoomMetrics
    /// Where the rooms send receipts and typing notices for other nodes.
    private let relay: any RoomSignalRelay
    private let logger: Logger
    /// What the rooms' typing throttle reads.
    private let time: any TimeSource
    /// Told of what the rooms commit.
    private let observer: any CommitObserver
    private var rooms: [RoomID: Task<Room, any Error>] = [:]

    /// - Parameter recentCapacity: how many recent messages each room keeps in memory for history bursts.
    public init(
        eventLoops: any EventLoopGroup, store: any MessageStore, recentCapacity: Int, metrics: RoomMetrics = .none,
        relay: any RoomSignalRelay = NoRelay(), logger: Logger, time: any TimeSource = SystemTime(),
        observer: any CommitObserver = NoCommitObserver()
    ) {
        self.observer = observer
        self.relay = relay
        self.time = time
        self.eventLoops = eventLoops
        self.store = store
        self.recentCapacity = recentCapacity
        self.metrics = metrics
        self.logger = logger
    }

    /// The room with this id, opened if needed.
    public func room(_ id: RoomID) async throws -> Room {
        if let opening = self.rooms[id] {
            return try await opening.value
        }
        let opening = Task {
            [store, recentCapacity, metrics, relay, logger, time, observer, eventLoop = self.eventLoops.next()] in
            try await Room.open(
                id, on: eventLoop, store: store, recentCapacity: recentCapacity, metrics: metrics, relay: relay,
                logger: logger, time: time, observer: observer)
        }
        self.rooms[id] = opening
        do {
            return try await opening.value
        } catch {
            self.rooms[id] = nil
            throw error
        }
    }

    /// The ids of the rooms opened on this node: those whose members another node's commits must reach.
    public var openRoomIDs: [RoomID] { Array(self.rooms.keys) }

    /// Tells an open room that its store holds events up to `seq` (``Room/catchUp(to:)``); a room that is not open
    /// reads its history when it opens, so nothing is done for it.
    public func catchUp(_ id: RoomID, to seq: Int64) async {
        await self.openedRoom(id)?.catchUp(to: seq)
    }

    /// Delivers a signal from another node to the room's members here, if the room is open here (a room that is not
    /// has no members to tell).
    public func deliverRelayed(_ signal: RoomSignal) async {
        await self.openedRoom(signal.room)?.deliverRelayed(signal)
    }

    /// The room if it is open on this node (or opening); never opens one.
    private func openedRoom(_ id: RoomID) async -> Room? {
        guard let opening = self.rooms[id] else { return nil }
        return try? await opening.value
    }

    /// Waits until every open room has committed and delivered everything submitted so far.
    public func waitUntilIdle() async {
        for opening in self.rooms.values {
            if let room = try? await opening.value {
                await room.waitUntilIdle()
            }
        }
    }

    /// Finishes every room's pending work and stops their tasks (at shutdown), all rooms at once: one room waiting
    /// on a store that stopped answering delays the others by nothing.
    public func close() async {
        await withTaskGroup(of: Void.self) { group in
            for opening in self.rooms.values {
                group.addTask {
                    if let room = try? await opening.value {
                        await room.close()
                    }
                }
            }
        }
    }
}
