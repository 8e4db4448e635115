import ChatCore
import NIOCore
import SQLKit

extension SerialSQLWriter: EventWriter {
    /// One multi-row `INSERT` per batch, plus, for edits, deletes, reactions and attachments, the statements that
    /// change their targets, all in one transaction. The events keep the numbers the room gave them: it is the only
    /// writer (see ``MessageStore``), and it looked retried `clientMsgID`s up before proposing them.
    ///
    /// Written with SQLKit rather than Fluent's model API, which builds each row by reflection and bridges through
    /// Swift tasks. The future is awaited on the caller's actor (the room, whose executor is an event loop), so the
    /// result resumes the room directly instead of hopping through the global executor.
    public func append(
        _ events: [StoredMessage], isolation: isolated (any Actor)? = #isolation
    ) async throws -> [StoredMessage] {
        let written = self.write(EventEffects.storing(events, on: self.sql))
        try await withCheckedThrowingContinuation(isolation: isolation) {
            (continuation: CheckedContinuation<Void, any Error>) in
            written.whenComplete { continuation.resume(with: $0) }
        }
        return events
    }
}
