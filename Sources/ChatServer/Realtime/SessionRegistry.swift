import ChatCore
import Foundation
import NIOConcurrencyHelpers

/// The open modern connections of each account, so that what happens outside a connection — being added to a
/// room, a roommate going offline — reaches every device of the people it concerns.
final class SessionRegistry: LiveSessions {
    private let workers = NIOLockedValueBox<[UUID: [ObjectIdentifier: ModernWorker]]>([:])
    /// The connections that have had their presence snapshot: only they are told presence changes, since the snapshot
    /// says what happened before it (``PresenceBroadcaster``).
    private let watchingPresence = NIOLockedValueBox<Set<ObjectIdentifier>>([])

    /// Registers a connection; `false` (and nothing registered) when the account already has `limit` open.
    func add(_ worker: ModernWorker, for account: UUID, limit: Int) -> Bool {
        self.workers.withLockedValue { workers in
            guard (workers[account]?.count ?? 0) < limit else { return false }
            workers[account, default: [:]][ObjectIdentifier(worker)] = worker
            return true
        }
    }

    /// How many connections the account has open.
    func count(of account: UUID) -> Int {
        self.workers.withLockedValue { $0[account]?.count ?? 0 }
    }

    func joined(_ users: [UUID], room: RoomID) async {
        for user in users {
            for worker in self.workers(of: user) {
                await worker.follow(room)
            }
        }
    }

    func left(_ user: UUID, room: RoomID) async {
        for worker in self.workers(of: user) {
            await worker.unfollow(room)
        }
    }

    func closeAll(account: UUID) {
        for worker in self.workers(of: account) {
            worker.connection.closeForRevokedToken()
        }
    }

    func closeAll(tokenHash: String) {
        let revoked = self.workers.withLockedValue { workers in
            workers.values.flatMap(\.values).filter { $0.tokenHash == tokenHash }
        }
        for worker in revoked {
            worker.connection.closeForRevokedToken()
        }
    }

    func remove(_ worker: ModernWorker, for account: UUID) {
        self.workers.withLockedValue { workers in
            workers[account]?[ObjectIdentifier(worker)] = nil
            if workers[account]?.isEmpty == true { workers[account] = nil }
        }
        self.watchingPresence.withLockedValue { _ = $0.remove(ObjectIdentifier(worker)) }
    }

    /// From now on the connection is told its roommates' presence changes.
    func watchPresence(_ worker: ModernWorker) {
        self.watchingPresence.withLockedValue { _ = $0.insert(ObjectIdentifier(worker)) }
    }

    /// The open connections of these accounts that watch presence, grouped by event loop.
    func presenceWatchers(of accounts: Set<UUID>) -> [ObjectIdentifier: ContiguousArray<any EventSink>] {
        let watching = self.watchingPresence.withLockedValue { $0 }
        return self.workers.withLockedValue { workers in
            var byLoop: [ObjectIdentifier: ContiguousArray<any EventSink>] = [:]
            for account in accounts {
                for (id, worker) in workers[account] ?? [:] where watching.contains(id) {
                    byLoop[ObjectIdentifier(worker.connection.eventLoop), default: []].append(worker.connection)
                }
            }
            return byLoop
        }
    }

    /// The open connections of one account.
    func workers(of account: UUID) -> [ModernWorker] {
        self.workers.withLockedValue { Array(($0[account] ?? [:]).values) }
    }
}
