/// The messages pinned to the top of a room (PROTOCOL.md §7.8), which a `pin` event sets and a delete clears.
public protocol PinnedMessages: Sendable {
    /// The room's pinned messages in their current state, the most recently pinned first; at most `limit`.
    func pinnedMessages(in room: RoomID, limit: Int) async throws -> [StoredMessage]
}
