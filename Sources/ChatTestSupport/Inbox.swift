import DequeModule
import NIOConcurrencyHelpers

/// How long a test waits for something the server is expected to send before it fails instead of hanging.
///
/// A deadline for liveness, not a claim about speed: in CI every integration suite runs at once on two cores, each
/// test with a server of its own (on PostgreSQL, a database of its own too), and there an answer that takes
/// milliseconds on a quiet machine has taken over five seconds. Tests never assert how fast the server is
/// (docs/BENCHMARKS.md does); a wait for something that must *not* arrive names its own, short, timeout.
public enum TestDeadline {
    public static let reply: Duration = .seconds(15)
}

/// What a test client has received, in arrival order. Pushed from event loops, read from test tasks.
///
/// A reader waiting for the next item sleeps until a push or the end of the stream wakes it (or its deadline
/// passes), rather than polling: hundreds of clients wait at once in a parallel test run, and polling them all every
/// few milliseconds cost the servers under test a good part of a core.
public final class Inbox<Element: Sendable>: Sendable {
    private struct State {
        var items: Deque<Element> = []
        var finished = false
        /// Counts pushes, so a reader looking for a particular item waits for a new one, not for any.
        var generation = 0
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter: UInt64 = 0

        /// The waiting readers, to be woken outside the lock.
        mutating func takeWaiters() -> [CheckedContinuation<Void, Never>] {
            defer { self.waiters.removeAll() }
            return Array(self.waiters.values)
        }
    }

    private let state = NIOLockedValueBox(State())

    public init() {}

    public func push(_ item: Element) {
        let waiters = self.state.withLockedValue { state in
            state.items.append(item)
            state.generation += 1
            return state.takeWaiters()
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Marks the end of the stream (the connection closed).
    public func finish() {
        let waiters = self.state.withLockedValue { state in
            state.finished = true
            return state.takeWaiters()
        }
        for waiter in waiters { waiter.resume() }
    }

    public var isFinished: Bool { self.state.withLockedValue { $0.finished && $0.items.isEmpty } }

    /// The next item, waiting for it up to `timeout`; `nil` when the stream ended or the wait ran out.
    public func next(timeout: Duration = TestDeadline.reply) async -> Element? {
        let deadline = ContinuousClock.now + timeout
        while true {
            let (item, finished, generation) = self.state.withLockedValue {
                ($0.items.popFirst(), $0.finished, $0.generation)
            }
            if let item { return item }
            if finished || ContinuousClock.now >= deadline { return nil }
            await self.waitForPush(after: generation, until: deadline)
        }
    }

    /// Waits for the first item matching `predicate` and removes only it, leaving the others in order; `nil` when
    /// none came before the deadline or the end of the stream.
    public func take(where predicate: (Element) -> Bool, timeout: Duration = TestDeadline.reply) async -> Element? {
        let deadline = ContinuousClock.now + timeout
        while true {
            let (found, finished, generation) = self.state.withLockedValue { state -> (Element?, Bool, Int) in
                guard let index = state.items.firstIndex(where: predicate) else {
                    return (nil, state.finished, state.generation)
                }
                return (state.items.remove(at: index), state.finished, state.generation)
            }
            if let found { return found }
            if finished || ContinuousClock.now >= deadline { return nil }
            await self.waitForPush(after: generation, until: deadline)
        }
    }

    /// Everything received so far, removed from the inbox.
    public func drain() -> [Element] {
        self.state.withLockedValue { state in
            defer { state.items.removeAll() }
            return Array(state.items)
        }
    }

    /// Returns once an item newer than `generation` arrived, the stream ended, or the deadline passed.
    private func waitForPush(after generation: Int, until deadline: ContinuousClock.Instant) async {
        let timer = NIOLockedValueBox<Task<Void, Never>?>(nil)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let id = self.state.withLockedValue { state -> UInt64? in
                guard state.generation == generation, !state.finished else { return nil }
                defer { state.nextWaiter += 1 }
                state.waiters[state.nextWaiter] = continuation
                return state.nextWaiter
            }
            guard let id else { return continuation.resume() }
            timer.withLockedValue {
                $0 = Task {
                    try? await Task.sleep(until: deadline, clock: .continuous)
                    self.state.withLockedValue { $0.waiters.removeValue(forKey: id) }?.resume()
                }
            }
        }
        timer.withLockedValue { $0?.cancel() }
    }
}

/// A test expectation that did not hold; thrown so the test fails with a readable message instead of hanging.
public struct TestClientError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
