import ChatCore
import NIOConcurrencyHelpers
import Testing

/// A clock that only moves when told to.
final class ManualClock: Clock, Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: self.offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - self.offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private let current = NIOLockedValueBox(Instant(offset: .zero))
    var now: Instant { self.current.withLockedValue { $0 } }
    var minimumResolution: Duration { .nanoseconds(1) }

    func advance(by duration: Duration) {
        self.current.withLockedValue { $0 = $0.advanced(by: duration) }
    }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        while self.now < deadline { try await Task.sleep(for: .milliseconds(1)) }
    }
}

@Suite("Login attempt limiter")
struct AttemptLimiterTests {
    @Test func allowsABurstThenOneAttemptPerRefill() {
        let clock = ManualClock()
        let limiter = AttemptLimiter(clock: clock, burst: 3, refill: .seconds(30))
        for _ in 0..<3 { #expect(limiter.attempt(["user:ann"]) == nil) }
        #expect(limiter.attempt(["user:ann"]) == .seconds(30))
        clock.advance(by: .seconds(20))
        #expect(limiter.attempt(["user:ann"]) == .seconds(10))
        clock.advance(by: .seconds(10))
        #expect(limiter.attempt(["user:ann"]) == nil)
        #expect(limiter.attempt(["user:ann"]) != nil)
    }

    @Test("every key must have an attempt left, and a refused attempt costs none")
    func allKeysMustAllow() {
        let clock = ManualClock()
        let limiter = AttemptLimiter(clock: clock, burst: 2, refill: .seconds(10))
        #expect(limiter.attempt(["user:a", "ip:1"]) == nil)
        #expect(limiter.attempt(["user:b", "ip:1"]) == nil)
        // ip:1 is spent: user:c is refused and keeps its own two attempts.
        #expect(limiter.attempt(["user:c", "ip:1"]) != nil)
        #expect(limiter.attempt(["user:c", "ip:2"]) == nil)
        #expect(limiter.attempt(["user:c", "ip:3"]) == nil)
        #expect(limiter.attempt(["user:c", "ip:4"]) != nil)
    }
}

@Suite("Account rules")
struct AccountRulesTests {
    @Test(arguments: ["ann", "Ann.Lee", "a_b-c", "007", String(repeating: "x", count: 32)])
    func validUsernames(name: String) {
        #expect(AccountRules.isValidUsername(name))
    }

    @Test(arguments: ["ab", "_ann", ".ann", "ann lee", "ann@x", "ännä", String(repeating: "x", count: 33)])
    func invalidUsernames(name: String) {
        #expect(!AccountRules.isValidUsername(name))
    }

    @Test func initialsAndColours() {
        #expect(AccountRules.initials(of: "Ann Lee") == "AL")
        #expect(AccountRules.initials(of: "bob") == "BO")
        #expect(AccountRules.defaultColor(for: "Ann") == AccountRules.defaultColor(for: "ann"))
        #expect(AccountRules.normalizedColor("#a1B2c3") == "#A1B2C3")
        #expect(AccountRules.normalizedColor("red") == nil)
    }
}
