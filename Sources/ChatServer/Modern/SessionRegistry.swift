import Foundation
import NIOConcurrencyHelpers

/// The open modern connections of each account, so that what happens outside a connection — being added to a
/// room, a roommate going offline — reaches every device of the people it concerns.
final class SessionRegistry: Sendable {
    private let workers = NIOLockedValueBox<[UUID: [ObjectIdentifier: ModernWorker]]>([:])

    func add(_ worker: ModernWorker, for account: UUID) {
        self.workers.withLockedValue { $0[account, default: [:]][ObjectIdentifier(worker)] = worker }
    }

    func remove(_ worker: ModernWorker, for account: UUID) {
        self.workers.withLockedValue { workers in
            workers[account]?[ObjectIdentifier(worker)] = nil
            if workers[account]?.isEmpty == true { workers[account] = nil }
        }
    }

    /// The open connections of one account.
    func workers(of account: UUID) -> [ModernWorker] {
        self.workers.withLockedValue { Array(($0[account] ?? [:]).values) }
    }
}
