/// A ``MessageStore`` that keeps everything in memory: for unit tests of rooms and for tools that need no
/// durability.
public actor InMemoryMessageStore: MessageStore {
    private var messages: [RoomID: [StoredMessage]] = [:]
    private var failuresToInject = 0

    public init() {}

    /// Makes the next `count` calls to ``append(_:)`` fail without storing anything.
    public func failNextAppends(_ count: Int) {
        self.failuresToInject = count
    }

    public func append(_ batch: [StoredMessage]) throws {
        if self.failuresToInject > 0 {
            self.failuresToInject -= 1
            throw Errors.injectedFailure
        }
        for message in batch {
            self.messages[message.room, default: []].append(message)
        }
    }

    public func latest(in room: RoomID, limit: Int) -> [StoredMessage] {
        Array((self.messages[room] ?? []).suffix(limit))
    }

    public func lastSequence(in room: RoomID) -> Int64 {
        self.messages[room]?.last?.seq ?? 0
    }

    public enum Errors: Error {
        case injectedFailure
    }
}
