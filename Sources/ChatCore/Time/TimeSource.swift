/// The monotonic time the server's timing rules read: the typing throttle and presence's grace period. The server
/// uses ``SystemTime``; tests pass a time they move by hand, so they check those rules without sleeping.
public protocol TimeSource: Sendable {
    var now: ContinuousClock.Instant { get }
    /// Returns once `now` has reached `deadline`; throws when the task is cancelled first.
    func sleep(until deadline: ContinuousClock.Instant) async throws
}

extension TimeSource {
    public func sleep(for duration: Duration) async throws {
        try await self.sleep(until: self.now.advanced(by: duration))
    }
}

/// The system's monotonic clock.
public struct SystemTime: TimeSource {
    public init() {}

    public var now: ContinuousClock.Instant { ContinuousClock.now }

    public func sleep(until deadline: ContinuousClock.Instant) async throws {
        try await Task.sleep(until: deadline, clock: .continuous)
    }
}
