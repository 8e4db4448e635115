/// The server's one clock: the monotonic time every rule that depends on time reads (rate limits, the typing
/// throttle, presence's grace period, the sweep of unsent uploads). `ChatService.start` takes one and passes it to
/// each of them: ``SystemTime`` in the server, and in tests a time they move by hand (`ManualTime`), so the rules are
/// checked by moving it past their deadlines instead of sleeping.
///
/// It is a `Clock` whose instants are `ContinuousClock`'s, so an instant read from it can be compared with one read
/// from the system, and it works wherever a clock is expected (`Task.sleep(for:clock:)`).
public protocol TimeSource: Clock, Sendable where Instant == ContinuousClock.Instant, Duration == Swift.Duration {}

extension TimeSource {
    /// Returns once `now` has reached `deadline`; throws when the task is cancelled first.
    public func sleep(until deadline: ContinuousClock.Instant) async throws {
        try await self.sleep(until: deadline, tolerance: nil)
    }

    public func sleep(for duration: Duration) async throws {
        try await self.sleep(until: self.now.advanced(by: duration), tolerance: nil)
    }
}

/// The system's monotonic clock.
public struct SystemTime: TimeSource {
    public init() {}

    public var now: ContinuousClock.Instant { ContinuousClock.now }

    public var minimumResolution: Duration { ContinuousClock().minimumResolution }

    public func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration?) async throws {
        try await ContinuousClock().sleep(until: deadline, tolerance: tolerance)
    }
}
