import ChatCore
import ChatTestSupport
import NIOConcurrencyHelpers
import Testing

/// Work that never answers by itself, even when cancelled (as a query on a dead connection), until released.
final class Stuck: Sendable {
    private let state = NIOLockedValueBox<(waiter: CheckedContinuation<Void, Never>?, released: Bool)>((nil, false))
    private let cancelled = NIOLockedValueBox(false)

    /// Whether the work was cancelled, waiting up to a few seconds for its task to start and see it.
    func sawCancellation() async -> Bool {
        (try? await eventually("the work saw its cancellation", within: .seconds(5)) {
            self.cancelled.withLockedValue { $0 }
        }) != nil
    }

    /// Whether the work has begun to wait.
    var isWaiting: Bool { self.state.withLockedValue { $0.waiter != nil } }

    func wait() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let released = self.state.withLockedValue { state -> Bool in
                    if !state.released { state.waiter = continuation }
                    return state.released
                }
                if released { continuation.resume() }
            }
        } onCancel: {
            self.cancelled.withLockedValue { $0 = true }
        }
    }

    func release() {
        self.state.withLockedValue { state in
            state.released = true
            defer { state.waiter = nil }
            return state.waiter
        }?.resume()
    }
}

@Suite("Deadline")
struct DeadlineTests {
    @Test func answersWithTheWorksResult() async throws {
        let answer = try await Deadline.run(within: .seconds(30)) { 42 }
        #expect(answer == 42)
        await #expect(throws: CancellationError.self) {
            try await Deadline.run(within: .seconds(30)) { throw CancellationError() }
        }
    }

    @Test func abandonsWorkThatNeverAnswersAndCancelsIt() async throws {
        let stuck = Stuck()
        defer { stuck.release() }
        await #expect(throws: DeadlineExceeded.self) {
            try await Deadline.run(within: .milliseconds(50)) { await stuck.wait() }
        }
        #expect(await stuck.sawCancellation())
    }

    @Test func cancellingTheCallerAnswersAtOnceAndCancelsTheWork() async throws {
        let stuck = Stuck()
        defer { stuck.release() }
        let caller = Task { try await Deadline.run(within: .seconds(3600)) { await stuck.wait() } }
        try await eventually("the work waits") { stuck.isWaiting }
        caller.cancel()
        await #expect(throws: CancellationError.self) { try await caller.value }
        #expect(await stuck.sawCancellation())
    }

    @Test func anAlreadyCancelledCallerIsAnsweredWithoutWaiting() async throws {
        let stuck = Stuck()
        defer { stuck.release() }
        let caller = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await Deadline.run(within: .seconds(3600)) { await stuck.wait() }
        }
        await #expect(throws: CancellationError.self) { try await caller.value }
    }
}
