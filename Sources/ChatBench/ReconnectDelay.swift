import NIOCore

/// The wait before a client's next try, as the `ChatClient` library's `ReconnectBackoff` computes it: a bound from
/// 250 ms doubling with each attempt up to `cap`, and a random point between half the bound and the bound, so that
/// clients that lost their server together do not come back together.
enum ReconnectDelay {
    static let initialMilliseconds = 250

    /// The wait before `attempt` (1-based).
    static func before(attempt: Int, capMilliseconds: Int) -> TimeAmount {
        let bound = min(Self.initialMilliseconds << min(max(attempt - 1, 0), 16), capMilliseconds)
        return .milliseconds(Int64(Double(bound) * Double.random(in: 0.5...1)))
    }
}
