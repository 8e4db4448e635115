import ChatCore

/// How often logins may be tried (PROTOCOL.md §6.2, docs/SECURITY.md), in three buckets so that no one can lock
/// an owner out and no single place can guess fast:
/// - per account and address: 10 at once, then one every 30 s (one place guessing one password);
/// - per address: 50 at once, then one every 6 s (many people behind one NAT still sign in);
/// - per account from anywhere: 100 at once, then one every 36 s (guessing spread over many addresses).
/// Ten wrong passwords from one address block that address for that account only: the owner still signs in
/// from anywhere else. Unknown usernames are counted exactly like existing ones, so the answers do not differ.
public struct LoginThrottle: Sendable {
    private let perAccountAndAddress: AttemptLimiter
    private let perAddress: AttemptLimiter
    private let perAccount: AttemptLimiter

    public init(time: any TimeSource) {
        self.perAccountAndAddress = AttemptLimiter(time: time, burst: 10, refill: .seconds(30))
        self.perAddress = AttemptLimiter(time: time, burst: 50, refill: .seconds(6))
        self.perAccount = AttemptLimiter(time: time, burst: 100, refill: .seconds(36))
    }

    /// Takes one attempt; `nil` when allowed, else how long to wait.
    public func attempt(username: String, address: String) -> Duration? {
        let account = AccountRules.usernameKey(username)
        if let wait = self.perAccountAndAddress.attempt([account + "@" + address]) { return wait }
        if let wait = self.perAddress.attempt([address]) { return wait }
        return self.perAccount.attempt([account])
    }
}
