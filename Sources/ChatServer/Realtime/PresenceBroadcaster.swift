import ChatCore
import ChatProtocol
import ChatUseCases
import Foundation
import Logging
import NIOCore

/// Tells this node's modern connections who of their roommates is online (PROTOCOL.md §9.5): a snapshot when a
/// connection opens, then every change, and records when a user going offline was last seen.
///
/// Roommates are members of a room of at most `roomLimit` members (`--presence-room-limit`). Every member of a room
/// of n members hears each other's changes, and each gets a snapshot of the others: n² entries for the room when
/// everyone connects, which 2,000 modern clients in the lobby made 4 million, and every one of them was dropped
/// (docs/BENCHMARKS.md "Scale"). Bounding the rooms bounds a snapshot and a change's audience by
/// the small rooms a user is in; in a larger one a client asks for a member's presence (`GET /users/{id}`).
///
/// Everything goes through one queue (``BatchQueue``), so a node's presence output has one order. Each flush takes
/// every change and snapshot request that arrived while the previous flush ran, reads the rooms of everyone
/// concerned in one query, and writes each connection one frame: all of its roommates' changes of that flush. At
/// low load a flush holds one change and goes at once; when many connect together (a restart sends every client back
/// at once) flushes grow by themselves, and the work falls from one query and one frame per roommate per change to
/// one query per flush and one frame per connection.
///
/// A connection is told changes only once it has had its snapshot (``SessionRegistry/watchPresence(_:for:)``), and not
/// those of the flush that made its snapshot: the snapshot is read after them, so it already says what they say.
/// Since flushes run in order, no change overtakes a snapshot or an earlier change. A change still on its way to the
/// queue when a snapshot is read (the tracker reports each change from a task of its own) can repeat what that
/// snapshot said; presence frames are states, so a repeat changes nothing (PROTOCOL.md §9.5).
final class PresenceBroadcaster: PresenceAudience {
    /// A connection waiting for its snapshot.
    struct SnapshotRequest: Sendable {
        let worker: ModernWorker
        let account: UUID
        /// Which of these users are online on any node.
        let online: @Sendable (Set<UUID>) async -> Set<UUID>
    }

    private enum Work: Sendable {
        case change(PresenceEntry)
        case snapshot(SnapshotRequest)
    }

    private let accounts: any AccountStore
    private let logger: Logger
    private let queue: BatchQueue<Work, Void>

    init(
        directory: any RoomDirectory, roomLimit: Int, accounts: any AccountStore, sessions: SessionRegistry,
        logger: Logger
    ) {
        self.accounts = accounts
        self.logger = logger
        let flush = PresenceFlush(directory: directory, roomLimit: roomLimit, sessions: sessions, logger: logger)
        self.queue = BatchQueue(maxBatch: Self.maxBatch) { batch in
            var changes: [PresenceEntry] = []
            var snapshots: [SnapshotRequest] = []
            for work in batch {
                switch work {
                case .change(let entry): changes.append(entry)
                case .snapshot(let request): snapshots.append(request)
                }
            }
            await flush.run(changes: changes, snapshots: snapshots)
            return batch.map { _ in .success(()) }
        }
    }

    /// Changes and snapshots per flush at most: a thousand clients connecting at once make a few flushes.
    static let maxBatch = 1024

    /// Records the last seen time of a user going offline, then tells their roommates connected here.
    func announce(_ user: UUID, online: Bool, lastSeen: Date?) async {
        if let lastSeen {
            do {
                try await self.accounts.setLastSeen(user, at: lastSeen)
            } catch {
                self.logger.warning("could not record when \(user) was last seen: \(error)")
            }
        }
        self.push(user, online: online, lastSeen: lastSeen)
    }

    /// Tells the user's roommates connected to this node, in the next flush, without waiting for it: on PostgreSQL
    /// every change arrives here from one listener, one notification after the other, and changes that waited for
    /// their flush one by one would never share one.
    func push(_ user: UUID, online: Bool, lastSeen: Date?) {
        self.queue.enqueue(.change(PresenceEntry(id: user, online: online, lastSeen: lastSeen?.milliseconds)))
    }

    /// Sends the connection its snapshot (everyone it shares a room with who is online) in the next flush, and
    /// returns once it is queued on the connection, before anything the connection sends after.
    func sendSnapshot(_ request: SnapshotRequest) async {
        _ = try? await self.queue.submit(.snapshot(request))
    }

    /// Returns once every change and snapshot queued so far has been sent: their flushes read the database, which
    /// must stay open until then.
    func drained() async {
        await self.queue.drained()
    }
}

/// One flush of ``PresenceBroadcaster``'s queue.
private struct PresenceFlush: Sendable {
    let directory: any RoomDirectory
    let roomLimit: Int
    let sessions: SessionRegistry
    let logger: Logger

    func run(changes: [PresenceEntry], snapshots: [PresenceBroadcaster.SnapshotRequest]) async {
        // A user's last change of the flush is their state.
        var latest: [UUID: PresenceEntry] = [:]
        var order: [UUID] = []
        for entry in changes {
            if latest.updateValue(entry, forKey: entry.id) == nil { order.append(entry.id) }
        }
        let subjects = Set(order).union(snapshots.map(\.account))
        var roommates: [UUID: Set<UUID>] = [:]
        do {
            for members in try await self.directory.members(ofRoomsOf: subjects, ofAtMost: self.roomLimit).values {
                for member in members where subjects.contains(member) {
                    roommates[member, default: []].formUnion(members)
                }
            }
        } catch {
            self.logger.warning("could not read who shares a room with whom for presence: \(error)")
        }
        await self.sendSnapshots(snapshots, roommates: roommates)
        self.sendChanges(order.compactMap { latest[$0] }, roommates: roommates)
        for request in snapshots {
            self.sessions.watchPresence(request.worker, for: request.account)
        }
    }

    /// Each connection's online roommates and itself, sorted by id (`UUID`'s own order, the order of its `uuidString`).
    private func sendSnapshots(
        _ snapshots: [PresenceBroadcaster.SnapshotRequest], roommates: [UUID: Set<UUID>]
    ) async {
        guard let first = snapshots.first else { return }
        var everyone: Set<UUID> = []
        for request in snapshots { everyone.formUnion(roommates[request.account] ?? []) }
        let online = await first.online(everyone)
        for request in snapshots {
            // The account itself is among them, in a small room or not: online, since it is connecting (the web
            // client shows it so).
            let users = (roommates[request.account] ?? []).intersection(online).union([request.account])
            let frame = PresenceFrame(users: users.sorted().map { PresenceEntry(id: $0, online: true, lastSeen: nil) })
            guard let bytes = ModernRenderer.frame(frame) else { continue }
            let connection = request.worker.connection
            FanOut.write([bytes], to: [connection], on: connection.eventLoop)
        }
    }

    /// Each watching connection gets its roommates' changes in one frame, encoded once per distinct list.
    private func sendChanges(_ entries: [PresenceEntry], roommates: [UUID: Set<UUID>]) {
        var changesOf: [UUID: [Int]] = [:]
        for (index, entry) in entries.enumerated() {
            for roommate in roommates[entry.id] ?? [] where roommate != entry.id {
                changesOf[roommate, default: []].append(index)
            }
        }
        var recipients: [[Int]: Set<UUID>] = [:]
        for (account, changes) in changesOf {
            recipients[changes, default: []].insert(account)
        }
        for (changes, accounts) in recipients {
            guard let frame = ModernRenderer.frame(PresenceFrame(users: changes.map { entries[$0] })) else { continue }
            for connections in self.sessions.presenceWatchers(of: accounts).values {
                guard let loop = connections.first?.eventLoop else { continue }
                FanOut.write([frame], to: connections, on: loop)
            }
        }
    }
}

/// One node: every change is news, and who is online here is who is online.
struct LocalPresenceAnnouncer: PresenceAnnouncer {
    let broadcaster: PresenceBroadcaster

    func start(following tracker: PresenceTracker) {}

    func changed(_ user: UUID, online: Bool, lastSeen: Date?) async {
        await self.broadcaster.announce(user, online: online, lastSeen: lastSeen)
    }

    func online(among users: Set<UUID>, here: Set<UUID>) async -> Set<UUID> { here }

    func close() async {}
}
