import ChatCore
import Foundation

/// How an account's send (`send`, `edit`, `delete`, `react`) is checked: whether the account is a member of the
/// room, and how many messages it may send (`--send-burst` at once, then `--send-rate` per second).
public struct SendChecks: Sendable {
    /// This node's limit, taken before the room on every backend. On one node it is the limit. On several, the
    /// shared limit decides, at commit; this one keeps an account's flood through this node away from the
    /// database, and never refuses what the shared limit would pass (it counts only this node's sends).
    public let local: LocalSendLimit
    /// Whether the transaction that commits a send checks membership and the shared limit (several nodes on
    /// PostgreSQL, `PostgresSenderChecks`): one limit for every node, and no round trip of its own per message.
    /// The room answers `forbidden` or `rate_limited` for a draft refused there.
    public let atCommit: Bool

    public init(local: LocalSendLimit, atCommit: Bool) {
        self.local = local
        self.atCommit = atCommit
    }
}

/// The send limit kept in this process's memory.
public struct LocalSendLimit: Sendable {
    public let limiter: AttemptLimiter

    public init(burst: Int, rate: Int, time: any TimeSource) {
        self.limiter = AttemptLimiter(time: time, burst: burst, refill: .seconds(1) / rate)
    }

    /// Takes one send for `account`; when none is left, takes nothing and returns how long until there is one.
    public func attempt(_ account: UUID) -> Duration? {
        self.limiter.attempt(["user:\(account.uuidString)"])
    }
}
