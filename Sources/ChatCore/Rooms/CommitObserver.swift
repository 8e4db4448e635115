/// Told of every batch of events this node's rooms commit, once durable: what reacts to messages off the path of a
/// message (Web Push). Called on the room's executor: it must only hand the events on, and return.
public protocol CommitObserver: Sendable {
    func committed(_ events: [StoredMessage])
}

/// Nobody is told.
public struct NoCommitObserver: CommitObserver {
    public init() {}
    public func committed(_ events: [StoredMessage]) {}
}
