import DequeModule
import NIOConcurrencyHelpers

/// What a test client has received, in arrival order. Pushed from event loops, read from test tasks.
public final class Inbox<Element: Sendable>: Sendable {
    private struct State {
        var items: Deque<Element> = []
        var finished = false
    }

    private let state = NIOLockedValueBox(State())

    public init() {}

    public func push(_ item: Element) {
        self.state.withLockedValue { $0.items.append(item) }
    }

    /// Marks the end of the stream (the connection closed).
    public func finish() {
        self.state.withLockedValue { $0.finished = true }
    }

    public var isFinished: Bool { self.state.withLockedValue { $0.finished && $0.items.isEmpty } }

    /// The next item, waiting for it up to `timeout`; `nil` when the stream ended or the wait ran out.
    public func next(timeout: Duration = .seconds(5)) async -> Element? {
        let deadline = ContinuousClock.now + timeout
        while true {
            let (item, finished) = self.state.withLockedValue { ($0.items.popFirst(), $0.finished) }
            if let item { return item }
            if finished || ContinuousClock.now >= deadline { return nil }
            try? await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Waits for the first item matching `predicate` and removes only it, leaving the others in order.
    public func take(where predicate: (Element) -> Bool, timeout: Duration = .seconds(5)) async -> Element? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let found = self.state.withLockedValue { state -> Element? in
                guard let index = state.items.firstIndex(where: predicate) else { return nil }
                return state.items.remove(at: index)
            }
            if let found { return found }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return nil
    }

    /// Everything received so far, removed from the inbox.
    public func drain() -> [Element] {
        self.state.withLockedValue { state in
            defer { state.items.removeAll() }
            return Array(state.items)
        }
    }
}

/// A test expectation that did not hold; thrown so the test fails with a readable message instead of hanging.
public struct TestClientError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
