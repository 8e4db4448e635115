import ChatCore
import NIOConcurrencyHelpers
import Testing

@Suite("BatchQueue")
struct BatchQueueTests {
    /// A handler that records its batches and holds the first one until ``release()``.
    final class HeldHandler: Sendable {
        private let batches = NIOLockedValueBox<[[Int]]>([])
        private let gate = AsyncStream<Void>.makeStream()

        var seen: [[Int]] { self.batches.withLockedValue { $0 } }

        /// Doubles each request; an odd request of 13 fails.
        func handle(_ batch: [Int]) async -> [Result<Int, any Error>] {
            let first = self.batches.withLockedValue { batches in
                batches.append(batch)
                return batches.count == 1
            }
            if first {
                for await _ in self.gate.stream { break }
            }
            return batch.map { $0 == 13 ? .failure(Unlucky()) : .success($0 * 2) }
        }

        func release() { self.gate.continuation.yield() }
    }

    struct Unlucky: Error {}

    @Test(
        "requests that arrive while a batch runs go together in the next one, in order and capped; each caller gets its own answer"
    )
    func batchesWhatArrivesMeanwhile() async throws {
        // setup: a first request holds the queue
        let handler = HeldHandler()
        let queue = BatchQueue<Int, Int>(maxBatch: 3, handler: handler.handle)
        let first = Task { try await queue.submit(1) }
        while handler.seen.isEmpty { await Task.yield() }
        // act: five more arrive one after the other while it runs, then it ends
        var later: [Task<Int, any Error>] = []
        for request in [2, 3, 13, 5, 6] {
            later.append(Task { try await queue.submit(request) })
            while queue.waiting < later.count { await Task.yield() }
        }
        handler.release()
        // validate: the first went alone; the rest in arrival order, three at most per batch
        #expect(try await first.value == 2)
        var answers: [Int?] = []
        for task in later { answers.append(try? await task.value) }
        #expect(answers == [4, 6, nil, 10, 12])
        #expect(handler.seen == [[1], [2, 3, 13], [5, 6]])
        #expect(queue.waiting == 0)
    }

    @Test("drained() returns once every queued request has been handled, and at once on an idle queue")
    func drainedWaitsForTheLastBatch() async throws {
        let handler = HeldHandler()
        let queue = BatchQueue<Int, Int>(maxBatch: 3, handler: handler.handle)
        await queue.drained()
        let first = Task { try await queue.submit(1) }
        while handler.seen.isEmpty { await Task.yield() }
        queue.enqueue(2)
        // What the handler had seen when drained() returned: both batches, never only the held first one.
        let seenWhenDrained = Task { () -> [[Int]] in
            await queue.drained()
            return handler.seen
        }
        for _ in 0..<100 { await Task.yield() }
        handler.release()
        #expect(await seenWhenDrained.value == [[1], [2]])
        #expect(try await first.value == 2)
    }

    @Test("an idle queue handles a request at once, alone, and again after it drained")
    func idleQueueGoesAtOnce() async throws {
        let batches = NIOLockedValueBox<[[Int]]>([])
        let queue = BatchQueue<Int, Int>(maxBatch: 8) { batch in
            batches.withLockedValue { $0.append(batch) }
            return batch.map { .success($0 + 1) }
        }
        #expect(try await queue.submit(1) == 2)
        #expect(try await queue.submit(2) == 3)
        #expect(batches.withLockedValue { $0 } == [[1], [2]])
    }

    @Test("requests enqueued without waiting go in order, together with those that wait")
    func enqueuedWithoutWaiting() async throws {
        let handler = HeldHandler()
        let queue = BatchQueue<Int, Int>(maxBatch: 8, handler: handler.handle)
        let first = Task { try await queue.submit(1) }
        while handler.seen.isEmpty { await Task.yield() }
        queue.enqueue(2)
        queue.enqueue(3)
        let last = Task { try await queue.submit(4) }
        while queue.waiting < 3 { await Task.yield() }
        handler.release()
        #expect(try await first.value == 2)
        #expect(try await last.value == 8)
        #expect(handler.seen == [[1], [2, 3, 4]])
    }

    @Test("a handler that answers too few results fails the requests left without one")
    func missingAnswerFails() async throws {
        let queue = BatchQueue<Int, Int>(maxBatch: 8) { _ in [] }
        await #expect(throws: BatchQueueError.self) { try await queue.submit(1) }
    }
}
