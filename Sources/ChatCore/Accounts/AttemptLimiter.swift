import NIOConcurrencyHelpers

/// Limits attempts per key (a username, an IP address): each key may make `burst` attempts at once and regains
/// one every `refill`. Used to slow down password guessing.
///
/// It is a token bucket written as GCRA: per key it keeps only the time at which the bucket would be full again,
/// so all arithmetic is on exact `Duration`s. It reads the server's clock (``TimeSource``), so tests advance time
/// instead of sleeping.
public final class AttemptLimiter: Sendable {
    private let time: any TimeSource
    private let burst: Int
    private let refill: Duration
    /// Per key, when its bucket is full again; keys whose time has passed are full and may be forgotten.
    private let fullAgain = NIOLockedValueBox<[String: ContinuousClock.Instant]>([:])

    public init(time: any TimeSource, burst: Int, refill: Duration) {
        self.time = time
        self.burst = burst
        self.refill = refill
    }

    /// Takes one attempt for every key; when any key has none left, takes nothing and returns how long until it
    /// has one again.
    public func attempt(_ keys: [String]) -> Duration? {
        let now = self.time.now
        let capacity = self.refill * self.burst
        return self.fullAgain.withLockedValue { fullAgain in
            var updated: [(String, ContinuousClock.Instant)] = []
            var wait: Duration?
            for key in keys {
                let start = max(fullAgain[key] ?? now, now)
                let next = start.advanced(by: self.refill)
                let excess = now.duration(to: next) - capacity
                if excess > .zero { wait = max(wait ?? .zero, excess) }
                updated.append((key, next))
            }
            guard wait == nil else { return wait }
            for (key, next) in updated { fullAgain[key] = next }
            if fullAgain.count > 100_000 { fullAgain = fullAgain.filter { $0.value > now } }
            return nil
        }
    }
}
