import NIOConcurrencyHelpers

/// Group commit for work that many callers submit at once: requests that arrive while a batch is being handled go
/// together in the next batch.
///
/// The first request of an idle queue is handled at once, alone, so nothing ever waits for a batch to fill. Under
/// load, each batch takes everything that arrived during the one before it (up to ``maxBatch``), so batches grow
/// with the load by themselves and the fixed cost of a batch (a transaction's commit, a round trip) is shared.
/// Batches run one at a time, in a task of their own, in the order their requests arrived.
public final class BatchQueue<Request: Sendable, Answer: Sendable>: Sendable {
    /// Handles one batch; answers one result per request, in the requests' order.
    public typealias Handler = @Sendable (_ batch: [Request]) async -> [Result<Answer, any Error>]

    private struct Waiting {
        var request: Request
        /// `nil` for a request nobody waits for (``enqueue(_:)``).
        var continuation: CheckedContinuation<Answer, any Error>?
    }

    private struct State {
        var waiting: [Waiting] = []
        var running = false
        /// Who waits for the queue to be empty (``drained()``).
        var idleWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let maxBatch: Int
    private let handler: Handler
    private let state = NIOLockedValueBox(State())

    public init(maxBatch: Int, handler: @escaping Handler) {
        precondition(maxBatch > 0, "a batch holds at least one request")
        self.maxBatch = maxBatch
        self.handler = handler
    }

    /// How many requests wait for the batch after the one running.
    public var waiting: Int {
        self.state.withLockedValue { $0.waiting.count }
    }

    /// Returns once no batch runs and no request waits: for a caller that stops what the handler uses (a database
    /// at shutdown) after the last request has been queued.
    public func drained() async {
        await withCheckedContinuation { continuation in
            let idle = self.state.withLockedValue { state in
                guard state.running else { return true }
                state.idleWaiters.append(continuation)
                return false
            }
            if idle { continuation.resume() }
        }
    }

    /// Queues the request and returns its answer once its batch has been handled.
    public func submit(_ request: Request) async throws -> Answer {
        try await withCheckedThrowingContinuation { continuation in
            self.queue(Waiting(request: request, continuation: continuation))
        }
    }

    /// Queues the request without waiting for its batch: for a caller that must go on at once (one that handles
    /// a stream of requests one by one would otherwise never let two meet in a batch). Its answer is dropped.
    public func enqueue(_ request: Request) {
        self.queue(Waiting(request: request, continuation: nil))
    }

    private func queue(_ waiting: Waiting) {
        let start = self.state.withLockedValue { state in
            state.waiting.append(waiting)
            guard !state.running else { return false }
            state.running = true
            return true
        }
        if start {
            Task { await self.drain() }
        }
    }

    /// Handles batches until no request waits.
    private func drain() async {
        while true {
            let (batch, idleWaiters) = self.state.withLockedValue {
                state -> ([Waiting], [CheckedContinuation<Void, Never>]) in
                let taken = Array(state.waiting.prefix(self.maxBatch))
                state.waiting.removeFirst(taken.count)
                guard taken.isEmpty else { return (taken, []) }
                state.running = false
                defer { state.idleWaiters = [] }
                return ([], state.idleWaiters)
            }
            guard !batch.isEmpty else {
                for waiter in idleWaiters { waiter.resume() }
                return
            }
            let answers = await self.handler(batch.map(\.request))
            for (index, waiting) in batch.enumerated() {
                waiting.continuation?.resume(
                    with: index < answers.count ? answers[index] : .failure(BatchQueueError.noAnswer))
            }
        }
    }
}

public enum BatchQueueError: Error {
    /// The handler answered fewer results than the batch had requests (a bug in the handler).
    case noAnswer
}
