import ChatCore
import Testing

@Suite("Login attempt limiter")
struct AttemptLimiterTests {
    @Test func allowsABurstThenOneAttemptPerRefill() {
        let time = ManualTime()
        let limiter = AttemptLimiter(time: time, burst: 3, refill: .seconds(30))
        for _ in 0..<3 { #expect(limiter.attempt(["user:ann"]) == nil) }
        #expect(limiter.attempt(["user:ann"]) == .seconds(30))
        time.advance(by: .seconds(20))
        #expect(limiter.attempt(["user:ann"]) == .seconds(10))
        time.advance(by: .seconds(10))
        #expect(limiter.attempt(["user:ann"]) == nil)
        #expect(limiter.attempt(["user:ann"]) != nil)
    }

    @Test("every key must have an attempt left, and a refused attempt costs none")
    func allKeysMustAllow() {
        let time = ManualTime()
        let limiter = AttemptLimiter(time: time, burst: 2, refill: .seconds(10))
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
