import ChatCore
import ChatUseCases
import Foundation
import NIOConcurrencyHelpers

/// The open modern connections of each account, so that what happens outside a connection — being added to a
/// room, a roommate going offline — reaches every device of the people it concerns.
final class SessionRegistry: LiveSessions {
    /// A registered connection.
    private struct Entry {
        let worker: ModernWorker
        /// Whether it has had its presence snapshot: only then is it told presence changes, since the snapshot says
        /// what happened before it (``PresenceBroadcaster``).
        var watchesPresence = false
    }

    private let entries = NIOLockedValueBox<[UUID: [ObjectIdentifier: Entry]]>([:])

    /// Registers a connection; `false` (and nothing registered) when the account already has `limit` open.
    func add(_ worker: ModernWorker, for account: UUID, limit: Int) -> Bool {
        self.entries.withLockedValue { entries in
            guard (entries[account]?.count ?? 0) < limit else { return false }
            entries[account, default: [:]][ObjectIdentifier(worker)] = Entry(worker: worker)
            return true
        }
    }

    /// How many connections the account has open.
    func count(of account: UUID) -> Int {
        self.entries.withLockedValue { $0[account]?.count ?? 0 }
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

    func closeAll(deactivated account: UUID) {
        for worker in self.workers(of: account) {
            worker.connection.closeForDeactivatedAccount()
        }
    }

    func closeAll(tokenHash: String) {
        let revoked = self.entries.withLockedValue { entries in
            entries.values.flatMap(\.values).map(\.worker).filter { $0.tokenHash == tokenHash }
        }
        for worker in revoked {
            worker.connection.closeForRevokedToken()
        }
    }

    func remove(_ worker: ModernWorker, for account: UUID) {
        self.entries.withLockedValue { entries in
            entries[account]?[ObjectIdentifier(worker)] = nil
            if entries[account]?.isEmpty == true { entries[account] = nil }
        }
    }

    /// From now on the connection is told its roommates' presence changes; nothing if it has closed meanwhile.
    func watchPresence(_ worker: ModernWorker, for account: UUID) {
        self.entries.withLockedValue { entries in
            entries[account]?[ObjectIdentifier(worker)]?.watchesPresence = true
        }
    }

    /// The open connections of these accounts that watch presence, grouped by event loop.
    func presenceWatchers(of accounts: Set<UUID>) -> [ObjectIdentifier: ContiguousArray<any EventSink>] {
        self.entries.withLockedValue { entries in
            var byLoop: [ObjectIdentifier: ContiguousArray<any EventSink>] = [:]
            for account in accounts {
                for entry in (entries[account] ?? [:]).values where entry.watchesPresence {
                    let connection = entry.worker.connection
                    byLoop[ObjectIdentifier(connection.eventLoop), default: []].append(connection)
                }
            }
            return byLoop
        }
    }

    /// The open connections of one account.
    func workers(of account: UUID) -> [ModernWorker] {
        self.entries.withLockedValue { ($0[account] ?? [:]).values.map(\.worker) }
    }
}
