import ChatProtocol
import Foundation
import NIOConcurrencyHelpers

/// A ``MessageStore`` that keeps everything in memory: for unit tests of rooms and for tools that need no
/// durability.
public final class InMemoryMessageStore: MessageStore {
    private struct State {
        var messages: [RoomID: [StoredMessage]] = [:]
        var failuresToInject = 0
        var readFailuresToInject = 0
    }

    private let state = NIOLockedValueBox(State())

    public init() {}

    /// Makes the next `count` calls to ``append(_:isolation:)`` fail without storing anything.
    public func failNextAppends(_ count: Int) {
        self.state.withLockedValue { $0.failuresToInject = count }
    }

    /// Numbers the batch after what its room holds and returns the original of any retried `clientMsgID`, under one
    /// lock: what a database does in its committing transaction, so rooms sharing this store behave as nodes
    /// sharing one database.
    /// Makes the next `count` calls to ``page(in:before:limit:)`` fail.
    public func failNextReads(_ count: Int) {
        self.state.withLockedValue { $0.readFailuresToInject = count }
    }

    @discardableResult
    public func append(
        _ batch: [StoredMessage], isolation: isolated (any Actor)? = #isolation
    ) async throws -> [StoredMessage] {
        try self.state.withLockedValue { state in
            if state.failuresToInject > 0 {
                state.failuresToInject -= 1
                throw Errors.injectedFailure
            }
            var stored: [StoredMessage] = []
            for var message in batch {
                if let clientMsgID = message.clientMsgID,
                    let original = Self.message(in: state, from: message.sender.id, clientMsgID: clientMsgID)
                {
                    stored.append(original)
                    continue
                }
                try Self.recheck(message, in: state)
                message.seq = (state.messages[message.room]?.last?.seq ?? 0) + 1
                state.messages[message.room, default: []].append(message)
                stored.append(message)
            }
            return stored
        }
    }

    /// It checks no sender: every event is stored, or the batch fails.
    public func appendEach(
        _ batch: [StoredMessage], isolation: isolated (any Actor)? = #isolation
    ) async throws -> [Result<StoredMessage, RoomRejection>] {
        try await self.append(batch, isolation: isolation).map { .success($0) }
    }

    public func latest(in room: RoomID, limit: Int) async -> [StoredMessage] {
        self.state.withLockedValue { Array(Self.current(state: $0, room: room).suffix(limit)) }
    }

    public func page(in room: RoomID, before: Int64?, limit: Int) async throws -> [StoredMessage] {
        try self.state.withLockedValue { state in
            if state.readFailuresToInject > 0 {
                state.readFailuresToInject -= 1
                throw Errors.injectedFailure
            }
            return Array(
                Self.current(state: state, room: room).filter { before == nil || $0.seq < before! }.suffix(limit))
        }
    }

    public func message(in room: RoomID, seq: Int64) async -> StoredMessage? {
        self.state.withLockedValue { state in Self.current(state: state, room: room).first { $0.seq == seq } }
    }

    public func lastMessage(in room: RoomID, upTo last: Int64) async -> StoredMessage? {
        self.state.withLockedValue { state in
            Self.current(state: state, room: room).last { $0.kind == .message && $0.seq <= last }
        }
    }

    public func unreadCount(in room: RoomID, after seq: Int64, upTo last: Int64, for reader: UUID) async -> Int64 {
        min(Int64(self.unread(in: room, after: seq, upTo: last, for: reader).count), UnreadCount.limit)
    }

    public func unreadMentions(in room: RoomID, after seq: Int64, upTo last: Int64, for reader: UUID) async -> Int64 {
        min(
            Int64(
                self.unread(in: room, after: seq, upTo: last, for: reader)
                    .filter { $0.mentions.all || $0.mentions.accounts.contains(reader) }.count),
            UnreadCount.limit)
    }

    /// The messages after `seq` and up to `last`, not deleted, that someone other than `reader` sent.
    private func unread(in room: RoomID, after seq: Int64, upTo last: Int64, for reader: UUID) -> [StoredMessage] {
        self.state.withLockedValue { state in
            Self.current(state: state, room: room).filter {
                $0.seq > seq && $0.seq <= last && $0.kind == .message && !$0.deleted
                    && !($0.sender.id == reader && $0.sender.via == nil)
            }
        }
    }

    /// Memory knows no accounts: only `@all` is kept.
    public func resolveMentions(_ request: MentionRequest, in room: RoomID) async -> Mentions {
        Mentions(all: request.all)
    }

    /// A room's events with every message brought to its current state, as a database store keeps them.
    /// What an event refers to, as stored now: another writer may have deleted it since the room read it (as
    /// ``MessageStore/append(_:isolation:)`` requires of a store several writers share).
    private static func recheck(_ event: StoredMessage, in state: State) throws(RoomRejection) {
        guard let seq = event.target ?? event.replyTo?.seq else { return }
        guard let target = Self.current(state: state, room: event.room).first(where: { $0.seq == seq }),
            target.kind == .message, !target.deleted
        else { throw .badTarget }
    }

    private static func current(state: State, room: RoomID) -> [StoredMessage] {
        var events = state.messages[room] ?? []
        var indexBySeq: [Int64: Int] = [:]
        for index in events.indices {
            indexBySeq[events[index].seq] = index
            if let target = events[index].target, let targetIndex = indexBySeq[target] {
                events[targetIndex].apply(events[index])
            }
        }
        // A deleted message's text goes from its edits and from quotes of it too.
        for index in events.indices {
            if let quoted = events[index].replyTo, let quotedIndex = indexBySeq[quoted.seq], events[quotedIndex].deleted
            {
                events[index].replyTo?.text = ""
            }
            if events[index].kind == .edit, let target = events[index].target, let targetIndex = indexBySeq[target],
                events[targetIndex].deleted
            {
                events[index].text = ""
            }
        }
        return events
    }

    public func message(from sender: UUID, clientMsgID: String) async -> StoredMessage? {
        self.state.withLockedValue { Self.message(in: $0, from: sender, clientMsgID: clientMsgID) }
    }

    private static func message(in state: State, from sender: UUID, clientMsgID: String) -> StoredMessage? {
        state.messages.values.lazy.flatMap { $0 }.first { $0.sender.id == sender && $0.clientMsgID == clientMsgID }
    }

    public func lastSequence(in room: RoomID) async -> Int64 {
        self.state.withLockedValue { $0.messages[room]?.last?.seq ?? 0 }
    }

    public enum Errors: Error {
        case injectedFailure
    }
}
