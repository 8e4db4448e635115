import ChatCore
import Foundation

/// How many messages an account may send (`--send-burst` at once, then `--send-rate` per second): on one node a
/// limiter in memory, on several nodes one shared in the database, so an account spread over N nodes cannot send N
/// times the rate.
protocol SendLimit: Sendable {
    /// Takes one send for `account`; when none is left, takes nothing and returns how long until there is one.
    func attempt(_ account: UUID) async -> Duration?
}

/// The limit kept in this process's memory.
struct LocalSendLimit: SendLimit {
    let limiter: AttemptLimiter<ContinuousClock>

    init(burst: Int, rate: Int) {
        self.limiter = AttemptLimiter(clock: ContinuousClock(), burst: burst, refill: .seconds(1) / rate)
    }

    func attempt(_ account: UUID) async -> Duration? {
        self.limiter.attempt(["user:\(account.uuidString)"])
    }
}
