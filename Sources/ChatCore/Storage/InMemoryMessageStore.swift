import Foundation
import NIOConcurrencyHelpers

/// A ``MessageStore`` that keeps everything in memory: for unit tests of rooms and for tools that need no
/// durability.
public final class InMemoryMessageStore: MessageStore {
    private struct State {
        var messages: [RoomID: [StoredMessage]] = [:]
        var failuresToInject = 0
    }

    private let state = NIOLockedValueBox(State())

    public init() {}

    /// Makes the next `count` calls to ``append(_:isolation:)`` fail without storing anything.
    public func failNextAppends(_ count: Int) {
        self.state.withLockedValue { $0.failuresToInject = count }
    }

    public func append(_ batch: [StoredMessage], isolation: isolated (any Actor)? = #isolation) async throws {
        try self.state.withLockedValue { state in
            if state.failuresToInject > 0 {
                state.failuresToInject -= 1
                throw Errors.injectedFailure
            }
            for message in batch {
                state.messages[message.room, default: []].append(message)
            }
        }
    }

    public func latest(in room: RoomID, limit: Int) async -> [StoredMessage] {
        self.state.withLockedValue { Array(($0.messages[room] ?? []).suffix(limit)) }
    }

    public func page(in room: RoomID, before: Int64?, limit: Int) async -> [StoredMessage] {
        self.state.withLockedValue { state in
            Array((state.messages[room] ?? []).filter { before == nil || $0.seq < before! }.suffix(limit))
        }
    }

    public func message(from sender: UUID, clientMsgID: String) async -> StoredMessage? {
        self.state.withLockedValue { state in
            state.messages.values.lazy.flatMap { $0 }.first { $0.sender.id == sender && $0.clientMsgID == clientMsgID }
        }
    }

    public func lastSequence(in room: RoomID) async -> Int64 {
        self.state.withLockedValue { $0.messages[room]?.last?.seq ?? 0 }
    }

    public enum Errors: Error {
        case injectedFailure
    }
}
