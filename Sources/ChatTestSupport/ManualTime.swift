import ChatCore
import NIOConcurrencyHelpers

/// A time that moves only when a test says so: timing rules (the typing throttle, presence's grace period) are
/// checked by moving it past their deadline instead of sleeping.
public final class ManualTime: TimeSource {
    private let state: NIOLockedValueBox<(now: ContinuousClock.Instant, sleepers: Int)>

    public init() {
        self.state = NIOLockedValueBox((ContinuousClock.now, 0))
    }

    public var now: ContinuousClock.Instant { self.state.withLockedValue { $0.now } }

    /// How many tasks are waiting for a deadline still ahead.
    public var sleepers: Int { self.state.withLockedValue { $0.sleepers } }

    public func advance(by duration: Duration) {
        self.state.withLockedValue { $0.now = $0.now.advanced(by: duration) }
    }

    public func sleep(until deadline: ContinuousClock.Instant) async throws {
        self.state.withLockedValue { $0.sleepers += 1 }
        defer { self.state.withLockedValue { $0.sleepers -= 1 } }
        // Looks again every millisecond of real time; a cancelled task stops waiting at once.
        while self.now < deadline {
            try await Task.sleep(for: .milliseconds(1))
        }
    }
}
