import Foundation

/// Durable storage of the events of every room: messages, and the edits, deletes and reactions that apply to them.
///
/// Reads return messages in their current state (``StoredMessage/apply(_:)`` of every later event), and events in
/// `seq` order. Appending an edit, delete or reaction also changes the state of its target, in the same
/// transaction.
///
/// A room hands its messages to ``append(_:isolation:)`` in batches and waits for the batch to be durable before
/// anyone sees one of them. Implementations must make a batch all-or-nothing: either every message in it is stored
/// or none is (the room then reports the failure to each sender).
///
/// **The store has the last word on sequence numbers.** A room proposes the next numbers it knows of; a store that
/// several writers share (PostgreSQL behind several nodes; memory, which tests share between rooms standing for
/// nodes) numbers the batch after whatever is committed in the room when it commits, inside the committing
/// transaction, so numbers stay gap-free and equal to commit order whichever node commits. SQLite has one writer,
/// kept to one process by the data-directory lock: it keeps the proposed numbers, and its unique `(room, seq)`
/// index refuses a batch that disagrees.
public protocol MessageStore: Sendable {
    /// Stores the events of one room atomically, in the order given, after every event already stored there, and
    /// returns them as stored: one per event given, in the same order, numbered by the store.
    ///
    /// An event whose sender already stored its `clientMsgID` (a retry, perhaps through another node) is not
    /// stored again: the original comes back in its place, with the original's `id` and `seq`.
    ///
    /// A store that several writers share checks again, under its commit's lock, what an edit, delete, reaction or
    /// reply refers to: one whose target another writer deleted since the room read it throws
    /// ``RoomRejection/badTarget``. (A reaction keeps its `added`: adding one already there, or removing one that
    /// is not, changes nothing.)
    ///
    /// Runs on the caller's actor (`isolation`, the room): the room awaits one write per batch on its hot path,
    /// and a nonisolated `async` function would hop to the global executor and back each time.
    @discardableResult
    func append(_ messages: [StoredMessage], isolation: isolated (any Actor)?) async throws -> [StoredMessage]

    /// ``append(_:isolation:)``, answering each event on its own. A store that checks senders as it commits
    /// (PostgreSQL behind several nodes: membership and the shared send limit are decided in the transaction that
    /// commits, with no round trip of their own) leaves out each account's send (``StoredMessage/isAccountSend``)
    /// whose sender is not a member of the room (``RoomRejection/forbidden``) or has spent their send limit
    /// (``RoomRejection/rateLimited(retryAfter:)``), and stores the others as one batch, numbered without gaps.
    /// A store that does not check (its callers checked before) stores them all, as ``append(_:isolation:)``.
    /// Every store implements it, a wrapper by forwarding it: a default answering from ``append(_:isolation:)``
    /// would let a wrapper drop its base's checks unnoticed.
    func appendEach(
        _ messages: [StoredMessage], isolation: isolated (any Actor)?
    ) async throws -> [Result<StoredMessage, RoomRejection>]

    /// The last `limit` events of a room, oldest first.
    func latest(in room: RoomID, limit: Int) async throws -> [StoredMessage]

    /// Up to `limit` messages with a sequence number below `before` (all when `nil`), the newest of them, oldest
    /// first: one page of history, read backwards.
    func page(in room: RoomID, before: Int64?, limit: Int) async throws -> [StoredMessage]

    /// The message a sender already stored under `clientMsgID`, in any room: the original of a retry that the rules
    /// refuse now (an edit, delete, reaction or reply whose target was deleted since it was stored), which
    /// ``append(_:isolation:)`` never sees.
    func message(from sender: UUID, clientMsgID: String) async throws -> StoredMessage?

    /// One message of a room in its current state (edited text, tombstone, reactions), or `nil` when no event has
    /// that `seq`.
    func message(in room: RoomID, seq: Int64) async throws -> StoredMessage?

    /// The newest `message` event of a room up to `last` (edits and reactions are not messages), in its current
    /// state. The bound lets a summary describe the room as of one `seq` while messages keep arriving.
    func lastMessage(in room: RoomID, upTo last: Int64) async throws -> StoredMessage?

    /// How many messages after `seq` and up to `last`, not deleted, were sent by someone other than `reader`: what
    /// counts as unread at `last`; at most ``UnreadCount/limit``.
    func unreadCount(in room: RoomID, after seq: Int64, upTo last: Int64, for reader: UUID) async throws -> Int64

    /// The highest sequence number stored in a room, or 0 when it has none.
    func lastSequence(in room: RoomID) async throws -> Int64

    /// Of the messages ``unreadCount(in:after:upTo:for:)`` counts, those that mention `reader` (by name or `@all`);
    /// at most ``UnreadCount/limit``.
    func unreadMentions(in room: RoomID, after seq: Int64, upTo last: Int64, for reader: UUID) async throws -> Int64

    /// The members of the room among `request`'s names, and whether its `@all` counts: in a direct room, in a room of
    /// at most ``MentionRequest/openAllLimit`` members, or from a moderator or the owner. The room asks it as it
    /// commits a message or an edit whose text has an `@` (PROTOCOL.md §9.10).
    func resolveMentions(_ request: MentionRequest, in room: RoomID) async throws -> Mentions
}

/// Where counting unread messages stops. A count is read at every summary (`GET /rooms`, `joined`), and counting a
/// million unread messages of a big lobby took 355 ms; past this many, a client shows "999+" anyway.
public enum UnreadCount {
    public static let limit: Int64 = 1000
}
