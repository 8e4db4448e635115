/// How long to wait before each reconnection attempt: exponential, capped, with full jitter.
///
/// Attempt 1 waits up to `initial`, attempt 2 up to twice that, and so on up to `maximum`. The actual wait is
/// drawn uniformly between half the bound and the bound ("equal jitter"), so a thousand clients dropped by one
/// restart do not all come back in the same millisecond, yet none retries at once in a loop.
public struct ReconnectBackoff: Sendable, Equatable {
    /// The bound for the first attempt.
    public var initial: Duration
    /// The largest bound.
    public var maximum: Duration

    /// A backoff from `initial` doubling up to `maximum`.
    public init(initial: Duration = .milliseconds(250), maximum: Duration = .seconds(30)) {
        self.initial = initial
        self.maximum = max(initial, maximum)
    }

    /// The upper bound for `attempt` (1-based), before jitter.
    public func bound(forAttempt attempt: Int) -> Duration {
        let doublings = min(max(attempt - 1, 0), 30)
        let bound = self.initial * (1 << doublings)
        return min(bound, self.maximum)
    }

    /// The wait before `attempt`, with `unit` a number in `0..<1` (random in production, fixed in tests).
    public func delay(forAttempt attempt: Int, unit: Double) -> Duration {
        let bound = self.bound(forAttempt: attempt)
        let fraction = 0.5 + 0.5 * min(max(unit, 0), 1)
        return bound * fraction
    }

    /// The wait before `attempt`, with random jitter.
    public func delay(forAttempt attempt: Int) -> Duration {
        self.delay(forAttempt: attempt, unit: Double.random(in: 0..<1))
    }
}
