import ChatCore
import NIOCore
import SQLKit

extension SerialSQLWriter: EventWriter {
    /// One multi-row `INSERT` per batch, plus, for edits, deletes, reactions and attachments, the statements that
    /// change their targets, all in one transaction. The events keep the numbers the room gave them: it is the only
    /// writer (see ``MessageStore``).
    ///
    /// Retries are found by the unique index of `(sender, clientMsgID)`, not looked up first: a batch it refuses is
    /// rolled back, and then, before any other write, its retries get their originals back and the rest is stored
    /// (``RetriedEvents``). A fresh message, the usual case, costs no read.
    ///
    /// Written with SQLKit rather than Fluent's model API, which builds each row by reflection and bridges through
    /// Swift tasks. The future is awaited on the caller's actor (the room, whose executor is an event loop), so the
    /// result resumes the room directly instead of hopping through the global executor.
    public func append(
        _ events: [StoredMessage], isolation: isolated (any Actor)? = #isolation
    ) async throws -> [StoredMessage] {
        let written = self.serially {
            self.execute(EventEffects.storing(events, on: self.sql)).map { events }.flatMapError { refusal in
                self.storeRetried(events, refusedWith: refusal)
            }
        }
        written.whenSuccess { _ in self.committed() }
        return try await withCheckedThrowingContinuation(isolation: isolation) {
            (continuation: CheckedContinuation<[StoredMessage], any Error>) in
            written.whenComplete { continuation.resume(with: $0) }
        }
    }

    /// Every event stored, or the batch's error: SQLite's writer does not check senders (one node checks them before
    /// the room, `SendChecks` in ChatServer).
    public func appendEach(
        _ events: [StoredMessage], isolation: isolated (any Actor)? = #isolation
    ) async throws -> [Result<StoredMessage, RoomRejection>] {
        try await self.append(events, isolation: isolation).map { .success($0) }
    }

    /// After the batch was refused: if it holds retries, stores the rest, numbered from the batch's first number;
    /// otherwise fails with the refusal.
    private func storeRetried(
        _ events: [StoredMessage], refusedWith refusal: any Error
    ) -> EventLoopFuture<[StoredMessage]> {
        guard let first = events.first?.seq, events.contains(where: { $0.clientMsgID != nil }) else {
            return self.sql.eventLoop.makeFailedFuture(refusal)
        }
        return self.sql.eventLoop.makeFutureWithTask {
            try await RetriedEvents.read(for: events, on: self.sql)
        }.flatMap { retried in
            guard !retried.isEmpty else { return self.sql.eventLoop.makeFailedFuture(refusal) }
            let (stored, fresh) = retried.numbering(events, from: first)
            guard !fresh.isEmpty else { return self.sql.eventLoop.makeSucceededFuture(stored) }
            return self.execute(EventEffects.storing(fresh, on: self.sql)).map { stored }
        }
    }
}
