import NIOConcurrencyHelpers

/// Tasks started outside any request — a connection's worker, a presence timer, a notification to other nodes —
/// that must be over before the server closes its database and stops its event loops.
///
/// ``close(within:)`` refuses new tasks, cancels the running ones and waits for them, so shutdown leaves no task
/// that would touch a closed database or a stopped event loop; the one exception is a task still stuck after the
/// limit in a call its driver never answers, which is left behind (and counted) rather than holding the shutdown
/// for ever. Such a task can only go on if that call ever answers.
public final class BackgroundTasks: Sendable {
    private struct State {
        var tasks: [Int: Task<Void, Never>] = [:]
        var next = 0
        var closed = false
    }

    private let state = NIOLockedValueBox(State())

    public init() {}

    /// Runs `work` in a task of its own, unless closed (then `work` is dropped).
    public func run(_ work: @escaping @Sendable () async -> Void) {
        self.state.withLockedValue { state in
            guard !state.closed else { return }
            state.next += 1
            let id = state.next
            // The task removes itself under the lock, which it cannot take before this insertion is done.
            state.tasks[id] = Task {
                await work()
                self.state.withLockedValue { _ = $0.tasks.removeValue(forKey: id) }
            }
        }
    }

    /// Refuses new tasks, cancels the running ones and returns when all of them have ended, or after `limit` with
    /// some still running: a task waiting on a query that its database driver never answers (the connection died
    /// under it) and that ignores cancellation would otherwise hold the shutdown for ever. Returns how many were
    /// left behind.
    @discardableResult
    public func close(within limit: Duration = .seconds(20)) async -> Int {
        let running = self.state.withLockedValue { state in
            state.closed = true
            return Array(state.tasks.values)
        }
        for task in running { task.cancel() }
        let allEnded = Task {
            for task in running { await task.value }
        }
        do {
            try await Deadline.run(within: limit) { await allEnded.value }
            return 0
        } catch {
            return self.state.withLockedValue { $0.tasks.count }
        }
    }
}
