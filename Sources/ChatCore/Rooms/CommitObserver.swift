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

/// Several observers, each told of every batch in turn.
public struct CommitObservers: CommitObserver {
    let observers: [any CommitObserver]

    public init(_ observers: [any CommitObserver]) {
        self.observers = observers
    }

    public func committed(_ events: [StoredMessage]) {
        for observer in self.observers { observer.committed(events) }
    }
}
