import Foundation

/// A message store whose every call answers within `limit`: one that does not fails with ``DeadlineExceeded``, so a
/// room never waits for ever on a store that lost its connection mid-query (it fails the batch, its senders retry
/// with the same `clientMsgID`, and the room goes on). A commit abandoned this way may still land; its retry then
/// gets the original back, and the room delivers it when it catches up.
public struct DeadlineMessageStore: MessageStore {
    let base: any MessageStore
    let limit: Duration

    public init(_ base: any MessageStore, limit: Duration) {
        self.base = base
        self.limit = limit
    }

    private func call<Value: Sendable>(
        _ work: @escaping @Sendable (any MessageStore) async throws -> Value
    ) async throws -> Value {
        try await Deadline.run(within: self.limit) { [base] in try await work(base) }
    }

    public func append(_ messages: [StoredMessage], isolation: isolated (any Actor)?) async throws -> [StoredMessage] {
        try await self.call { try await $0.append(messages, isolation: nil) }
    }

    public func appendEach(
        _ messages: [StoredMessage], isolation: isolated (any Actor)?
    ) async throws -> [Result<StoredMessage, RoomRejection>] {
        try await self.call { try await $0.appendEach(messages, isolation: nil) }
    }

    public func latest(in room: RoomID, limit: Int) async throws -> [StoredMessage] {
        try await self.call { try await $0.latest(in: room, limit: limit) }
    }

    public func page(in room: RoomID, before: Int64?, limit: Int) async throws -> [StoredMessage] {
        try await self.call { try await $0.page(in: room, before: before, limit: limit) }
    }

    public func message(from sender: UUID, clientMsgID: String) async throws -> StoredMessage? {
        try await self.call { try await $0.message(from: sender, clientMsgID: clientMsgID) }
    }

    public func message(in room: RoomID, seq: Int64) async throws -> StoredMessage? {
        try await self.call { try await $0.message(in: room, seq: seq) }
    }

    public func lastMessage(in room: RoomID, upTo last: Int64) async throws -> StoredMessage? {
        try await self.call { try await $0.lastMessage(in: room, upTo: last) }
    }

    public func unreadCount(in room: RoomID, after seq: Int64, upTo last: Int64, for reader: UUID) async throws
        -> Int64
    {
        try await self.call { try await $0.unreadCount(in: room, after: seq, upTo: last, for: reader) }
    }

    public func lastSequence(in room: RoomID) async throws -> Int64 {
        try await self.call { try await $0.lastSequence(in: room) }
    }

    public func unreadMentions(in room: RoomID, after seq: Int64, upTo last: Int64, for reader: UUID) async throws
        -> Int64
    {
        try await self.call { try await $0.unreadMentions(in: room, after: seq, upTo: last, for: reader) }
    }

    public func resolveMentions(_ request: MentionRequest, in room: RoomID) async throws -> Mentions {
        try await self.call { try await $0.resolveMentions(request, in: room) }
    }
}
