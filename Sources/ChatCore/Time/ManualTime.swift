import NIOConcurrencyHelpers

/// A clock that moves only when a test says so: timing rules (rate limits, the typing throttle, presence's grace
/// period, sweeps) are checked by moving it past their deadlines instead of sleeping. A task sleeping on it wakes
/// when ``advance(by:)`` reaches its deadline, or at once when it is cancelled; nothing polls.
public final class ManualTime: TimeSource {
    private struct State {
        var now = ContinuousClock.now
        var nextID: UInt64 = 0
        /// The tasks waiting for a deadline still ahead, by id.
        var sleepers: [UInt64: (deadline: ContinuousClock.Instant, wake: CheckedContinuation<Void, any Error>)] = [:]
        /// Sleeps that have an id and have not yet begun to wait.
        var starting: Set<UInt64> = []
        /// Those of `starting` that were cancelled: they fail as soon as they begin.
        var cancelled: Set<UInt64> = []
    }

    private let state = NIOLockedValueBox(State())

    public init() {}

    public var now: ContinuousClock.Instant { self.state.withLockedValue { $0.now } }

    public var minimumResolution: Duration { .nanoseconds(1) }

    /// How many tasks are waiting for a deadline still ahead.
    public var sleepers: Int { self.state.withLockedValue { $0.sleepers.count } }

    /// Moves the time forward and wakes every task whose deadline it reaches.
    public func advance(by duration: Duration) {
        let woken = self.state.withLockedValue { state in
            state.now = state.now.advanced(by: duration)
            let due = state.sleepers.filter { $0.value.deadline <= state.now }
            for id in due.keys { state.sleepers[id] = nil }
            return due.values.map(\.wake)
        }
        for wake in woken { wake.resume() }
    }

    public func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration?) async throws {
        let id = self.state.withLockedValue { state in
            defer { state.nextID += 1 }
            state.starting.insert(state.nextID)
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (wake: CheckedContinuation<Void, any Error>) in
                let answer: Result<Void, any Error>? = self.state.withLockedValue { state in
                    state.starting.remove(id)
                    if state.cancelled.remove(id) != nil { return .failure(CancellationError()) }
                    if deadline <= state.now { return .success(()) }
                    state.sleepers[id] = (deadline, wake)
                    return nil
                }
                if let answer { wake.resume(with: answer) }
            }
        } onCancel: {
            let waiting = self.state.withLockedValue { state in
                guard let sleeper = state.sleepers.removeValue(forKey: id) else {
                    // Not begun yet: it fails when it does. Already woken: nothing to do, and nothing to remember.
                    if state.starting.contains(id) { state.cancelled.insert(id) }
                    return nil as CheckedContinuation<Void, any Error>?
                }
                return sleeper.wake
            }
            waiting?.resume(throwing: CancellationError())
        }
    }
}
