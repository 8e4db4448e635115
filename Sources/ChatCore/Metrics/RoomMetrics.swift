import Metrics

/// What the rooms report about committing and replaying (docs/OPERATIONS.md lists every family).
///
/// Made from the server's own `MetricsFactory` rather than the process-wide `MetricsSystem`, so that servers
/// started side by side (the tests start many in one process) count separately. No metric has a label per room.
public struct RoomMetrics: Sendable {
    /// Events committed (messages, edits, deletes, reactions, renames).
    let committed: Counter
    /// Events per store transaction (group commit).
    let batchSize: Recorder
    /// How long one store transaction took.
    let commitDuration: Timer
    /// How many commands a room found waiting each time it woke: the depth of its fan-out queue.
    let queueDepth: Recorder
    let resumesComplete: Counter
    let resumesIncomplete: Counter

    public init(factory: any MetricsFactory) {
        self.committed = Counter(label: "swiftchat_events_committed_total", factory: factory)
        self.batchSize = Recorder(label: "swiftchat_commit_batch_size", aggregate: true, factory: factory)
        self.commitDuration = Timer(label: "swiftchat_commit_duration_seconds", factory: factory)
        self.queueDepth = Recorder(label: "swiftchat_room_queue_depth", aggregate: true, factory: factory)
        self.resumesComplete = Counter(
            label: "swiftchat_resumes_total", dimensions: [("outcome", "complete")], factory: factory)
        self.resumesIncomplete = Counter(
            label: "swiftchat_resumes_total", dimensions: [("outcome", "incomplete")], factory: factory)
    }

    /// Reports nothing.
    public static let none = RoomMetrics(factory: NOOPMetricsHandler.instance)
}
