import NIOConcurrencyHelpers

/// Work that must answer within a time limit even if what it waits for never does.
///
/// The work runs in a task of its own; if it has not finished after `limit`, the caller gets
/// ``DeadlineExceeded`` and the task is cancelled and left behind (its result, if it ever comes, is dropped). This is
/// for calls that may hang for ever through no fault of the caller (a database driver whose connection died under a
/// query, ARCHITECTURE.md §4.2), not a way to make slow work faster: whatever the work did before it was abandoned
/// stays done.
///
/// Cancelling the caller cancels the work and answers at once with `CancellationError`, whether or not the work
/// heeds it; the timer stops as soon as either side answers.
public enum Deadline {
    public static func run<Result: Sendable>(
        within limit: Duration, _ work: @escaping @Sendable () async throws -> Result
    ) async throws -> Result {
        let race = Race<Result>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                race.start(
                    continuation,
                    worker: Task {
                        do {
                            race.finish(with: .success(try await work()))
                        } catch {
                            race.finish(with: .failure(error))
                        }
                    },
                    timer: Task {
                        do {
                            try await Task.sleep(for: limit)
                            race.finish(with: .failure(DeadlineExceeded(limit: limit)))
                        } catch {
                            race.finish(with: .failure(CancellationError()))
                        }
                    })
            }
        } onCancel: {
            race.finish(with: .failure(CancellationError()))
        }
    }

    /// The work and its timer: the first to finish answers the caller, and both tasks are cancelled then.
    private final class Race<Result: Sendable>: Sendable {
        private struct State {
            var continuation: CheckedContinuation<Result, any Error>?
            var tasks: [Task<Void, Never>] = []
            /// An answer that came before the continuation was handed over (the caller was already cancelled).
            var early: Swift.Result<Result, any Error>?
            var answered = false
        }

        private let state = NIOLockedValueBox(State())

        func start(
            _ continuation: CheckedContinuation<Result, any Error>, worker: Task<Void, Never>, timer: Task<Void, Never>
        ) {
            let early = self.state.withLockedValue { state -> Swift.Result<Result, any Error>? in
                state.tasks = [worker, timer]
                guard let early = state.early else {
                    state.continuation = continuation
                    return nil
                }
                state.early = nil
                return early
            }
            if let early {
                worker.cancel()
                timer.cancel()
                continuation.resume(with: early)
            }
        }

        func finish(with result: Swift.Result<Result, any Error>) {
            let (continuation, tasks) = self.state.withLockedValue {
                state -> (CheckedContinuation<Result, any Error>?, [Task<Void, Never>]) in
                guard !state.answered else { return (nil, []) }
                state.answered = true
                guard let continuation = state.continuation else {
                    state.early = result
                    return (nil, [])
                }
                state.continuation = nil
                return (continuation, state.tasks)
            }
            for task in tasks { task.cancel() }
            continuation?.resume(with: result)
        }
    }
}

/// Work abandoned after its time limit.
public struct DeadlineExceeded: Error, CustomStringConvertible {
    public let limit: Duration
    public var description: String { "no answer within \(self.limit)" }
}
