import Foundation

/// Durable storage of room messages.
///
/// A room hands its messages to ``append(_:)`` in batches and waits for the batch to be durable before anyone
/// sees one of them. Implementations must make a batch all-or-nothing: either every message in it is stored or
/// none is (the room then reports the failure to each sender and reuses the sequence numbers).
public protocol MessageStore: Sendable {
    /// Stores the messages atomically, in the order given.
    ///
    /// Runs on the caller's actor (`isolation`, the room): the room awaits one write per batch on its hot path,
    /// and a nonisolated `async` function would hop to the global executor and back each time.
    func append(_ messages: [StoredMessage], isolation: isolated (any Actor)?) async throws

    /// The last `limit` messages of a room, oldest first.
    func latest(in room: RoomID, limit: Int) async throws -> [StoredMessage]

    /// Up to `limit` messages with a sequence number below `before` (all when `nil`), the newest of them, oldest
    /// first: one page of history, read backwards.
    func page(in room: RoomID, before: Int64?, limit: Int) async throws -> [StoredMessage]

    /// The message a sender already stored under `clientMsgID`, in any room: what makes a retry idempotent.
    func message(from sender: UUID, clientMsgID: String) async throws -> StoredMessage?

    /// The highest sequence number stored in a room, or 0 when it has none.
    func lastSequence(in room: RoomID) async throws -> Int64
}
