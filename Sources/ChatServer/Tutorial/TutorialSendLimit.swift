import ChatCore
import Metrics

/// The send rate limit of the tutorial protocols (`/chat` and TCP), which have no accounts: each connection,
/// and every connection from one address together, may send `burst` messages at once and then `rate` per
/// second (the address gets four times both, for people behind one NAT). A message over the limit is dropped
/// and its sender told why (an `err:` line, an error frame); the connection stays open.
struct TutorialSendLimit: Sendable {
    private let perConnection: AttemptLimiter
    private let perAddress: AttemptLimiter
    /// Counts the messages refused.
    private let refusals: Counter

    init(burst: Int, rate: Int, time: any TimeSource, refusals: Counter) {
        self.refusals = refusals
        self.perConnection = AttemptLimiter(time: time, burst: burst, refill: .seconds(1) / rate)
        self.perAddress = AttemptLimiter(time: time, burst: 4 * burst, refill: .seconds(1) / (4 * rate))
    }

    /// Takes one message for the connection and its client's address; `nil` when allowed, else whole seconds to
    /// wait.
    func attempt(connection: ObjectIdentifier, address: String) -> Int? {
        let wait =
            self.perConnection.attempt(["\(connection.hashValue)"])
            ?? self.perAddress.attempt([address])
        guard let wait else { return nil }
        self.refusals.increment()
        return Int(wait.components.seconds) + 1
    }
}
