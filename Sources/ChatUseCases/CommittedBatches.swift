import ChatCore
import ChatProtocol
import Synchronization

/// The batches this node's rooms commit, on their way to work done off the path of a message (Web Push, bots'
/// webhooks): a room hands a batch over and goes on, a bounded buffer holds them (past it the oldest are dropped), and
/// a task reads them. While nobody needs them (no subscription, no webhook: ``isActive(asking:)`` says no), a batch
/// costs one lock, and the database is asked again at most once per ``recheck``.
final class CommittedBatches: Sendable {
    let batches: AsyncStream<[StoredMessage]>
    private let continuation: AsyncStream<[StoredMessage]>.Continuation
    /// Whether anyone needs the batches, and when that was last asked (machinery, so the system's clock,
    /// ARCHITECTURE §1.2).
    private let active = Mutex<(known: Bool, asked: ContinuousClock.Instant?)>((false, nil))

    /// How long an answer of "nobody" stands (another node may take the first subscription).
    static let recheck: Duration = .seconds(1)

    init(buffered: Int) {
        (self.batches, self.continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(buffered))
    }

    /// Hands a batch on, unless nobody needed them when last asked, lately, or it holds no message.
    func add(_ events: [StoredMessage]) {
        let (known, asked) = self.active.withLock { $0 }
        if !known, let asked, asked.duration(to: .now) < Self.recheck { return }
        guard events.contains(where: { $0.kind == .message }) else { return }
        self.continuation.yield(events)
    }

    /// Someone needs them from now on (asked on this node).
    func activate() {
        self.active.withLock { $0.known = true }
    }

    /// Whether to look at a batch at all: yes once anyone needed them (that is not taken back often enough to ask
    /// again); until then, `asking` the database at most once per ``recheck``.
    func isActive(asking: () async -> Bool) async -> Bool {
        let now = ContinuousClock.now
        let (known, asked) = self.active.withLock { $0 }
        if known { return true }
        if let asked, asked.duration(to: now) < Self.recheck { return false }
        let any = await asking()
        self.active.withLock { $0 = (any || $0.known, now) }
        return any
    }
}
