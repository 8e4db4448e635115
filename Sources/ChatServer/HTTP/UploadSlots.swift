import Foundation
import NIOConcurrencyHelpers

/// How many uploads each account has in progress: a few at once, so that one account cannot hold many
/// connections and temporary files open.
final class UploadSlots: Sendable {
    /// Uploads one account may have in progress at once.
    static let perAccount = 4

    private let inProgress = NIOLockedValueBox<[UUID: Int]>([:])

    /// Takes a slot; `false` when the account has none left.
    func begin(_ account: UUID) -> Bool {
        self.inProgress.withLockedValue { inProgress in
            guard inProgress[account, default: 0] < Self.perAccount else { return false }
            inProgress[account, default: 0] += 1
            return true
        }
    }

    func end(_ account: UUID) {
        self.inProgress.withLockedValue { inProgress in
            inProgress[account, default: 1] -= 1
            if inProgress[account] == 0 { inProgress[account] = nil }
        }
    }
}
