import ChatProtocol
import Foundation

/// The frames sent but not yet acknowledged, in the order they were sent, with whoever waits for each ack.
///
/// Every entry keeps its `clientMsgID` for life, so a resend after a reconnection (or after a `rate_limited`
/// answer) is recognised by the server as the same message (PROTOCOL.md §8.3): delivered exactly once.
struct Outbox {
    struct Entry {
        var frame: ClientMessage
        var waiters: [UUID: CheckedContinuation<Ack, any Error>]
    }

    private(set) var order: [String] = []
    private var entries: [String: Entry] = [:]

    var isEmpty: Bool { self.order.isEmpty }
    var count: Int { self.order.count }

    /// The frames to send again after a reconnection, oldest first.
    var frames: [ClientMessage] { self.order.compactMap { self.entries[$0]?.frame } }

    func frame(for clientMsgID: String) -> ClientMessage? { self.entries[clientMsgID]?.frame }

    /// Adds a frame (or, for a `clientMsgID` already waiting, one more waiter). Returns whether it is new.
    mutating func add(
        _ frame: ClientMessage, clientMsgID: String, waiter: CheckedContinuation<Ack, any Error>, id: UUID
    ) -> Bool {
        if self.entries[clientMsgID] != nil {
            self.entries[clientMsgID]?.waiters[id] = waiter
            return false
        }
        self.order.append(clientMsgID)
        self.entries[clientMsgID] = Entry(frame: frame, waiters: [id: waiter])
        return true
    }

    /// Stops one waiter's wait (its task was cancelled) and keeps the frame: it is still sent until acknowledged.
    mutating func abandon(_ clientMsgID: String, waiter id: UUID) {
        self.entries[clientMsgID]?.waiters.removeValue(forKey: id)?.resume(throwing: CancellationError())
    }

    /// Removes the entry and answers its waiters. Returns whether there was one.
    @discardableResult
    mutating func resolve(_ clientMsgID: String, with result: Result<Ack, any Error>) -> Bool {
        guard let entry = self.entries.removeValue(forKey: clientMsgID) else { return false }
        self.order.removeAll { $0 == clientMsgID }
        for waiter in entry.waiters.values { waiter.resume(with: result) }
        return true
    }

    /// Fails every entry (the client stops).
    mutating func failAll(_ error: any Error) {
        for id in self.order { self.resolve(id, with: .failure(error)) }
    }
}
