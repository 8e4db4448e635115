import ChatCore
import Foundation
import Logging
import PostgresNIO

/// Sends JSON payloads to every node listening on one channel (`NOTIFY`), without the caller waiting. What travels
/// this way is ephemeral (receipts, typing, lobby announcements, membership changes, revoked tokens), so it is fire
/// and forget, but in order: one task sends the payloads in the order they were given (a rename's "left" before its
/// "joined", an account added to a room before it leaves it). A payload that finds ``maxWaiting`` others waiting,
/// or that cannot be sent (the database is away; a query on a lost connection, abandoned after ``sendDeadline``),
/// is dropped, and the log names what was lost.
final class NotificationSender: Sendable {
    /// Payloads given and not yet sent.
    static let maxWaiting = 10_000
    /// A query on a connection that died may never answer: the next payloads must not wait for it.
    static let sendDeadline = Duration.seconds(5)

    private let waiting: AsyncStream<String>.Continuation
    private let what: String
    private let logger: Logger

    /// `background` runs the sending task; the storage closes it before the client stops. `what` names one payload
    /// in the log ("a receipt, typing notice or lobby announcement").
    init(
        channel: String, client: PostgresClient, background: BackgroundTasks, losing what: String, logger: Logger
    ) {
        self.what = what
        self.logger = logger
        let (texts, waiting) = AsyncStream.makeStream(
            of: String.self, bufferingPolicy: .bufferingOldest(Self.maxWaiting))
        self.waiting = waiting
        background.run {
            for await text in texts {
                do {
                    _ = try await Deadline.run(within: Self.sendDeadline) {
                        try await client.query("SELECT pg_notify(\(channel), \(text))", logger: logger)
                    }
                } catch {
                    if Task.isCancelled { break }
                    logger.warning("could not send \(what) to other nodes: \(String(reflecting: error))")
                }
            }
        }
    }

    func send(_ payload: some Encodable) {
        guard let data = try? JSONEncoder().encode(payload) else { return }
        if case .dropped = self.waiting.yield(String(decoding: data, as: UTF8.self)) {
            self.logger.warning("\(self.what) was not sent to other nodes: \(Self.maxWaiting) are waiting")
        }
    }
}
