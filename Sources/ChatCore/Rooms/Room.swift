import Foundation
import Logging
import Metrics
import NIOConcurrencyHelpers
import NIOCore

/// One chat room: the single owner of its members, its next sequence number and its recent history.
///
/// Commands (submit, join, leave, announce) enter through a lock-protected inbox and are processed strictly in the
/// order they were enqueued, by the room's one long-lived task, which parks when the inbox is empty. Enqueueing is
/// synchronous, so a connection's event loop never waits for the room, and two frames from one connection can never
/// overtake each other (as they could if each became its own `Task` calling into the actor).
///
/// The actor runs on one NIO event loop (its custom executor): the room's work, the resumption after each store
/// write, and the delivery to members on that same loop all happen on one thread without a hop through Swift's
/// global executor.
///
/// A message is committed before anyone sees it: consecutive submits are sequenced and written to the store as
/// one batch (group commit), and only after the batch is durable is it fanned out to the members, in order. If
/// the store fails, the batch's senders get the error and its sequence numbers are reused, so `seq` stays
/// gap-free.
///
/// The store has the last word on numbers (``MessageStore``): when other writers share it (other nodes), a batch
/// may come back numbered after events this room has not seen, and ``catchUp(to:)`` tells it of such events. Either
/// way the room delivers strictly in `seq` order and never skips one: it reads what it has not seen from the store
/// first, and holds what it cannot deliver yet until it has.
public actor Room {
    /// Called once a submitted message is committed, or when it could not be.
    public typealias Completion = @Sendable (Result<StoredMessage, any Error>) -> Void

    enum Command: Sendable {
        case submit(MessageDraft, Completion?)
        case join(any EventSink, history: Int, announcement: PresenceChange?)
        case leave(any EventSink, announcement: PresenceChange?)
        case announce(PresenceChange, relayed: Bool)
        case resume(any EventSink, after: Int64, maxReplay: Int)
        case evict(UUID)
        /// `relayed`: it came from another node, which already relayed it.
        case receipt(user: UUID, seq: Int64, relayed: Bool)
        case typing(Sender, relayed: Bool)
        case catchUp(Int64)
    }

    struct Inbox {
        var commands: [Command] = []
        /// The room's task, waiting for work; `nil` while it is processing.
        var parked: CheckedContinuation<Bool, Never>?
        var closed = false
    }

    /// The most messages written in one store transaction.
    static let maxBatch = 256
    /// The most events read from the store at once when catching up with other nodes' commits.
    static let catchUpPage = 500
    /// How many recent acknowledged `(sender, clientMsgID)` pairs the room remembers; older retries are found in
    /// the store instead.
    static let rememberedAcks = 10_000

    public nonisolated let id: RoomID
    nonisolated let eventLoop: any EventLoop
    let store: any MessageStore
    /// Where receipts and typing notices go for the other nodes' copies of this room.
    let relay: any RoomSignalRelay
    /// Told of each batch this room commits.
    let observer: any CommitObserver
    let metrics: RoomMetrics
    let logger: Logger
    nonisolated let inbox = NIOLockedValueBox(Inbox())
    /// The room's task, kept so that ``close()`` can wait for it to end before the event loop stops.
    nonisolated let runner = NIOLockedValueBox<Task<Void, Never>?>(nil)
    /// The next sequence number to deliver: every event below it has been delivered, in order.
    var nextSeq: Int64
    /// Events known to be committed that cannot be delivered yet because an earlier one has not been read, by `seq`.
    var held: [Int64: StoredMessage] = [:]
    var recent: RecentMessages
    var members = FanOut()
    var recentAcks = RecentAcks(capacity: Room.rememberedAcks)
    var idleWaiters: [CheckedContinuation<Void, Never>] = []
    /// When each member's last `typing` was forwarded.
    var lastTyping: [UUID: ContinuousClock.Instant] = [:]
    /// What the typing throttle reads.
    let time: any TimeSource
    /// Set when a store call missed its deadline in the current round of commands (``process(_:)``): the store is
    /// not answering (its connection was lost under a query), so the rest of the round fails at once instead of
    /// waiting out the same deadline once per queued send, which kept a room, and the shutdown waiting for it, busy
    /// for minutes. The next round asks the store again.
    var storeNotAnswering: DeadlineExceeded?

    /// Forwarded `typing` notices per member are at least this far apart.
    public static let typingInterval = Duration.seconds(2)

    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        self.eventLoop.executor.asUnownedSerialExecutor()
    }

    /// Opens a room on `eventLoop`, reading where its sequence stands and its recent history from the store.
    public static func open(
        _ id: RoomID, on eventLoop: any EventLoop, store: any MessageStore, recentCapacity: Int,
        metrics: RoomMetrics = .none, relay: any RoomSignalRelay = NoRelay(),
        logger: Logger, time: any TimeSource = SystemTime(), observer: any CommitObserver = NoCommitObserver()
    ) async throws -> Room {
        let lastSeq = try await store.lastSequence(in: id)
        let recent = try await store.latest(in: id, limit: recentCapacity)
        let room = Room(
            id: id, eventLoop: eventLoop, store: store, relay: relay, nextSeq: lastSeq + 1,
            recent: RecentMessages(capacity: recentCapacity, messages: recent), metrics: metrics, logger: logger,
            time: time, observer: observer)
        room.runner.withLockedValue {
            $0 = Task(executorPreference: EventLoopTaskExecutor(eventLoop)) { await room.run() }
        }
        return room
    }

    private init(
        id: RoomID, eventLoop: any EventLoop, store: any MessageStore, relay: any RoomSignalRelay, nextSeq: Int64,
        recent: RecentMessages, metrics: RoomMetrics, logger: Logger, time: any TimeSource,
        observer: any CommitObserver
    ) {
        self.observer = observer
        self.id = id
        self.time = time
        self.eventLoop = eventLoop
        self.store = store
        self.relay = relay
        self.metrics = metrics
        self.nextSeq = nextSeq
        self.recent = recent
        var logger = logger
        logger[metadataKey: "room"] = "\(id)"
        self.logger = logger
    }

    /// The number of connections in the room.
    public var memberCount: Int { self.members.count }

    /// Submits a message. It is committed, then delivered to every member, the sender included.
    public nonisolated func submit(_ draft: MessageDraft, completion: Completion? = nil) {
        self.enqueue(.submit(draft, completion))
    }

    /// Submits a message and waits for its commit: the event as stored, or why the room refused it.
    @discardableResult
    public nonisolated func commit(_ draft: MessageDraft) async throws -> StoredMessage {
        try await withCheckedThrowingContinuation { continuation in
            self.submit(draft) { continuation.resume(with: $0) }
        }
    }

    /// Adds a connection. It first receives up to `history` recent messages, oldest first, then live events; a
    /// non-nil `announcing` name is announced as joined to every member, the joiner included.
    public nonisolated func join(_ sink: any EventSink, history: Int = 0, announcing name: String? = nil) {
        self.enqueue(.join(sink, history: history, announcement: name.map { PresenceChange(.joined, name: $0) }))
    }

    /// Removes a connection; a non-nil `announcing` name is announced as left if it was a member.
    public nonisolated func leave(_ sink: any EventSink, announcing name: String? = nil) {
        self.enqueue(.leave(sink, announcement: name.map { PresenceChange(.left, name: $0) }))
    }

    /// Adds a connection that has seen everything up to `after`: it first receives every later message, then a
    /// ``RoomEvent/resumed(room:latestSeq:complete:)`` marker, then live events, with nothing missed or repeated
    /// (the replay is read while the room processes nothing else). If more than `maxReplay` messages are missing,
    /// none are replayed and the marker says `complete: false`: the client pages history instead.
    public nonisolated func resume(_ sink: any EventSink, after: Int64, maxReplay: Int) {
        self.enqueue(.resume(sink, after: after, maxReplay: maxReplay))
    }

    /// Stops delivering to every connection of an account (it left the room), in order with the messages.
    public nonisolated func evict(_ account: UUID) {
        self.enqueue(.evict(account))
    }

    /// Tells every member that `user` has read up to `seq`, in order with the messages.
    public nonisolated func receipt(from user: UUID, upTo seq: Int64) {
        self.enqueue(.receipt(user: user, seq: seq, relayed: false))
    }

    /// Tells the other members that `user` is typing, at most once per ``typingInterval``.
    public nonisolated func typing(_ user: Sender) {
        self.enqueue(.typing(user, relayed: false))
    }

    /// Delivers a signal another node's copy of this room delivered to its members (and relays it no further).
    public nonisolated func deliverRelayed(_ signal: RoomSignal) {
        switch signal {
        case .receipt(_, let user, let seq): self.enqueue(.receipt(user: user, seq: seq, relayed: true))
        case .typing(_, let user): self.enqueue(.typing(user, relayed: true))
        case .announcement(_, let change): self.enqueue(.announce(change, relayed: true))
        }
    }

    /// Tells the room that its store holds events up to `seq` (another node committed them): it reads and delivers
    /// those it has not delivered, in order with everything else. A hint, not the data: a stale or repeated one
    /// costs one read at most.
    public nonisolated func catchUp(to seq: Int64) {
        self.enqueue(.catchUp(seq))
    }

    /// The highest sequence number delivered to the members (0 when the room is empty): every event up to it is
    /// committed and was delivered in order.
    public var latestSeq: Int64 { self.nextSeq - 1 }

    /// Announces a presence change to every member, in order with the messages.
    public nonisolated func announce(_ change: PresenceChange) {
        self.enqueue(.announce(change, relayed: false))
    }

    /// Returns once every command enqueued so far has been processed (used at shutdown and by tests).
    public func waitUntilIdle() async {
        guard self.inbox.withLockedValue({ $0.parked == nil || !$0.commands.isEmpty }) else { return }
        await withCheckedContinuation { self.idleWaiters.append($0) }
    }

    /// Stops the room's task once everything enqueued is processed; later commands are ignored.
    public func close() async {
        await self.waitUntilIdle()
        let parked = self.inbox.withLockedValue { inbox in
            inbox.closed = true
            defer { inbox.parked = nil }
            return inbox.parked
        }
        parked?.resume(returning: false)
        await self.runner.withLockedValue { $0 }?.value
    }

    public enum Errors: Error {
        /// A retry repeated within one batch found no original (cannot happen once the original is stored).
        case lostRetry
    }
}
