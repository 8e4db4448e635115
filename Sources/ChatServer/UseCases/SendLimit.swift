import ChatCore
import Foundation

/// Where an account's send (`send`, `edit`, `delete`, `react`) is checked: whether the account is a member of the
/// room, and how many messages it may send (`--send-burst` at once, then `--send-rate` per second).
enum SendChecks: Sendable {
    /// Before the room, on one node: the directory is asked, and the limit is kept in this process's memory.
    case beforeCommit(LocalSendLimit)
    /// By the transaction that commits the message, on several nodes (PostgreSQL's `PostgresSenderChecks`): one
    /// limit shared by every node, so an account spread over N nodes cannot send N times the rate, and no round
    /// trip of its own per message. The room answers `forbidden` or `rate_limited` for a draft refused there.
    case atCommit
}

/// The send limit kept in this process's memory.
struct LocalSendLimit: Sendable {
    let limiter: AttemptLimiter<ContinuousClock>

    init(burst: Int, rate: Int) {
        self.limiter = AttemptLimiter(clock: ContinuousClock(), burst: burst, refill: .seconds(1) / rate)
    }

    /// Takes one send for `account`; when none is left, takes nothing and returns how long until there is one.
    func attempt(_ account: UUID) -> Duration? {
        self.limiter.attempt(["user:\(account.uuidString)"])
    }
}
