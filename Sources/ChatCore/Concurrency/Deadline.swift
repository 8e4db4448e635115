import NIOConcurrencyHelpers

/// Work that must answer within a time limit even if what it waits for never does.
///
/// The work runs in a task of its own; if it has not finished after `limit`, the caller gets
/// ``DeadlineExceeded`` and the task is cancelled and left behind (its result, if it ever comes, is dropped). This is
/// for calls that may hang for ever through no fault of the caller (a database driver whose connection died under a
/// query, ARCHITECTURE.md §4.2), not a way to make slow work faster: whatever the work did before it was abandoned
/// stays done.
public enum Deadline {
    public static func run<Result: Sendable>(
        within limit: Duration, _ work: @escaping @Sendable () async throws -> Result
    ) async throws -> Result {
        let answered = NIOLockedValueBox(false)
        return try await withCheckedThrowingContinuation { continuation in
            let worker = Task {
                let result: Swift.Result<Result, any Error>
                do {
                    result = .success(try await work())
                } catch {
                    result = .failure(error)
                }
                guard
                    answered.withLockedValue({ done in
                        defer { done = true }
                        return !done
                    })
                else { return }
                continuation.resume(with: result)
            }
            Task {
                try? await Task.sleep(for: limit)
                guard
                    answered.withLockedValue({ done in
                        defer { done = true }
                        return !done
                    })
                else { return }
                worker.cancel()
                continuation.resume(throwing: DeadlineExceeded(limit: limit))
            }
        }
    }
}

/// Work abandoned after its time limit.
public struct DeadlineExceeded: Error, CustomStringConvertible {
    public let limit: Duration
    public var description: String { "no answer within \(self.limit)" }
}
