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

    private struct Inbox {
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
    private nonisolated let eventLoop: any EventLoop
    private let store: any MessageStore
    /// Where receipts and typing notices go for the other nodes' copies of this room.
    private let relay: any RoomSignalRelay
    private let metrics: RoomMetrics
    private let logger: Logger
    private nonisolated let inbox = NIOLockedValueBox(Inbox())
    /// The room's task, kept so that ``close()`` can wait for it to end before the event loop stops.
    private nonisolated let runner = NIOLockedValueBox<Task<Void, Never>?>(nil)
    /// The next sequence number to deliver: every event below it has been delivered, in order.
    private var nextSeq: Int64
    /// Events known to be committed that cannot be delivered yet because an earlier one has not been read, by `seq`.
    private var held: [Int64: StoredMessage] = [:]
    private var recent: RecentMessages
    private var members = FanOut()
    private var recentAcks = RecentAcks(capacity: Room.rememberedAcks)
    private var idleWaiters: [CheckedContinuation<Void, Never>] = []
    /// When each member's last `typing` was forwarded.
    private var lastTyping: [UUID: ContinuousClock.Instant] = [:]
    /// What the typing throttle reads.
    private let time: any TimeSource
    /// Set when a store call missed its deadline in the current round of commands (``process(_:)``): the store is
    /// not answering (its connection was lost under a query), so the rest of the round fails at once instead of
    /// waiting out the same deadline once per queued send, which kept a room, and the shutdown waiting for it, busy
    /// for minutes. The next round asks the store again.
    private var storeNotAnswering: DeadlineExceeded?

    /// Forwarded `typing` notices per member are at least this far apart.
    public static let typingInterval = Duration.seconds(2)

    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        self.eventLoop.executor.asUnownedSerialExecutor()
    }

    /// Opens a room on `eventLoop`, reading where its sequence stands and its recent history from the store.
    public static func open(
        _ id: RoomID, on eventLoop: any EventLoop, store: any MessageStore, recentCapacity: Int,
        metrics: RoomMetrics = .none, relay: any RoomSignalRelay = NoRelay(),
        logger: Logger, time: any TimeSource = SystemTime()
    ) async throws -> Room {
        let lastSeq = try await store.lastSequence(in: id)
        let recent = try await store.latest(in: id, limit: recentCapacity)
        let room = Room(
            id: id, eventLoop: eventLoop, store: store, relay: relay, nextSeq: lastSeq + 1,
            recent: RecentMessages(capacity: recentCapacity, messages: recent), metrics: metrics, logger: logger,
            time: time)
        room.runner.withLockedValue {
            $0 = Task(executorPreference: EventLoopTaskExecutor(eventLoop)) { await room.run() }
        }
        return room
    }

    private init(
        id: RoomID, eventLoop: any EventLoop, store: any MessageStore, relay: any RoomSignalRelay, nextSeq: Int64,
        recent: RecentMessages, metrics: RoomMetrics, logger: Logger, time: any TimeSource
    ) {
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

    private nonisolated func enqueue(_ command: Command) {
        let parked = self.inbox.withLockedValue { inbox -> CheckedContinuation<Bool, Never>? in
            guard !inbox.closed else { return nil }
            inbox.commands.append(command)
            defer { inbox.parked = nil }
            return inbox.parked
        }
        parked?.resume(returning: true)
    }

    /// The room's task: processes the inbox, then parks until `enqueue` wakes it. Parking on a continuation
    /// isolated to the room means the wake-up resumes directly on the room's event loop.
    private func run() async {
        while true {
            await self.drain()
            let proceed = await withCheckedContinuation(isolation: self) {
                (continuation: CheckedContinuation<Bool, Never>) in
                let resumeNow = self.inbox.withLockedValue { inbox -> Bool? in
                    if inbox.closed { return false }
                    if !inbox.commands.isEmpty { return true }
                    inbox.parked = continuation
                    return nil
                }
                if let resumeNow { continuation.resume(returning: resumeNow) }
            }
            if !proceed { return }
        }
    }

    /// Processes commands until the inbox is empty, then releases those waiting for the room to be idle.
    private func drain() async {
        while true {
            let commands = self.inbox.withLockedValue { inbox in
                defer { inbox.commands.removeAll(keepingCapacity: true) }
                return inbox.commands
            }
            if commands.isEmpty { break }
            self.metrics.queueDepth.record(commands.count)
            await self.process(commands)
        }
        let waiters = self.idleWaiters
        self.idleWaiters.removeAll()
        for waiter in waiters { waiter.resume() }
    }

    private func process(_ commands: [Command]) async {
        self.storeNotAnswering = nil
        var batch: [(MessageDraft, Completion?)] = []
        for command in commands {
            if case .submit(let draft, let completion) = command, draft.body.target != nil {
                // A draft that refers to another message is checked against that message as committed, so it is
                // committed alone, after everything before it.
                if !batch.isEmpty {
                    await self.commit(batch)
                    batch.removeAll(keepingCapacity: true)
                }
                await self.commit([(draft, completion)])
                continue
            }
            if case .submit(let draft, let completion) = command {
                batch.append((draft, completion))
                if batch.count == Self.maxBatch {
                    await self.commit(batch)
                    batch.removeAll(keepingCapacity: true)
                }
                continue
            }
            if !batch.isEmpty {
                await self.commit(batch)
                batch.removeAll(keepingCapacity: true)
            }
            await self.apply(command)
        }
        if !batch.isEmpty {
            await self.commit(batch)
        }
    }

    /// Tells the members here, and the other nodes' copies of the room unless it came from one of them.
    private func announce(_ change: PresenceChange, relayed: Bool) {
        self.members.deliver([.presence(change)])
        if !relayed { self.relay.publish(.announcement(room: self.id, change: change)) }
    }

    private func apply(_ command: Command) async {
        switch command {
        case .submit:
            preconditionFailure("submits are committed in batches")
        case .join(let sink, let history, let announcement):
            let payloads = self.recent.payloads(limit: history, renderer: sink.renderer)
            if !payloads.isEmpty {
                FanOut.write(payloads, to: [sink], on: sink.eventLoop)
            }
            self.members.insert(sink)
            if let announcement { self.announce(announcement, relayed: false) }
        case .leave(let sink, let announcement):
            if self.members.remove(sink), let announcement { self.announce(announcement, relayed: false) }
        case .announce(let change, let relayed):
            self.announce(change, relayed: relayed)
        case .resume(let sink, let after, let maxReplay):
            await self.replay(to: sink, after: after, maxReplay: maxReplay)
            self.members.insert(sink)
        case .evict(let account):
            self.members.removeAll(of: account)
        case .receipt(let user, let seq, let relayed):
            self.members.deliver([.receipt(room: self.id, user: user, seq: seq)])
            if !relayed { self.relay.publish(.receipt(room: self.id, user: user, seq: seq)) }
        case .typing(let user, let relayed):
            let now = self.time.now
            if let last = self.lastTyping[user.id], now - last < Self.typingInterval { return }
            self.lastTyping[user.id] = now
            self.members.deliver([.typing(room: self.id, user: user)], excluding: user.id)
            if !relayed { self.relay.publish(.typing(room: self.id, user: user)) }
        case .catchUp(let seq):
            await self.deliverStored(upTo: seq)
        }
    }

    private func replay(to sink: any EventSink, after: Int64, maxReplay: Int) async {
        let latest = self.nextSeq - 1
        let missing = max(0, latest - max(after, 0))
        var events: [RoomEvent] = []
        var complete = missing <= Int64(maxReplay)
        if complete && missing > 0 {
            do {
                events = try await self.fromStore {
                    try await self.store.page(in: self.id, before: latest + 1, limit: Int(missing))
                }.map(RoomEvent.message)
            } catch {
                self.logger.error("could not read messages to replay: \(error)")
                complete = false
            }
        }
        events.append(.resumed(room: self.id, latestSeq: latest, complete: complete))
        (complete ? self.metrics.resumesComplete : self.metrics.resumesIncomplete).increment()
        let payloads = events.compactMap(sink.renderer.render)
        FanOut.write(payloads, to: [sink], on: sink.eventLoop)
    }

    private func commit(_ drafts: [(MessageDraft, Completion?)]) async {
        // Retries (a clientMsgID acknowledged lately, or repeated in this batch) get the original message back and
        // are neither stored nor delivered again; the store finds older ones (``MessageStore/append(_:isolation:)``).
        var fresh: [(MessageDraft, Completion?)] = []
        var repeats: [(key: String, completion: Completion?)] = []
        var inBatch: Set<String> = []
        for draft in drafts {
            guard let key = RecentAcks.key(draft.0) else {
                fresh.append(draft)
                continue
            }
            if let original = self.recentAcks[key] {
                draft.1?(.success(original))
            } else if inBatch.contains(key) {
                repeats.append((key, draft.1))
            } else {
                inBatch.insert(key)
                fresh.append(draft)
            }
        }
        guard !fresh.isEmpty else { return }
        // Whole milliseconds, as every client sees a date and as a store reads it back: an ack sent now and the
        // ack of a retry, read from the store later, carry the same date.
        let date = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 * 1000).rounded() / 1000)
        // The numbers proposed: after everything delivered or held (the store may number them otherwise).
        let firstSeq = max(self.nextSeq, (self.held.keys.max() ?? 0) + 1)
        var messages: [StoredMessage] = []
        var committing: [(MessageDraft, Completion?)] = []
        for entry in fresh {
            do {
                var target: StoredMessage?
                if let seq = entry.0.body.target {
                    target = try await self.fromStore { try await self.store.message(in: self.id, seq: seq) }
                }
                messages.append(
                    try entry.0.event(
                        room: self.id, seq: firstSeq + Int64(messages.count), date: date, target: target))
                committing.append(entry)
            } catch {
                entry.1?(await self.answer(refused: entry.0, with: error))
            }
        }
        guard !messages.isEmpty else { return }
        let started = ContinuousClock.now
        let outcomes: [Result<StoredMessage, RoomRejection>]
        do {
            outcomes = try await self.fromStore { try await self.store.appendEach(messages, isolation: self) }
        } catch let refusal as RoomRejection {
            // The store found the target changed since it was read (another node deleted it): the draft is refused
            // as it would have been here, unless it is a retry of one stored before.
            for (draft, completion) in committing {
                completion?(await self.answer(refused: draft, with: refusal))
            }
            for (key, completion) in repeats {
                completion?(self.recentAcks[key].map { .success($0) } ?? .failure(refusal))
            }
            return
        } catch {
            self.logger.error("could not store \(messages.count) message(s): \(error)")
            for (_, completion) in committing { completion?(.failure(error)) }
            for (_, completion) in repeats { completion?(.failure(error)) }
            return
        }
        precondition(outcomes.count == messages.count, "a store answers every event")
        // A store that checks senders as it commits may have refused some drafts (not a member, send limit spent):
        // they are answered so, unless one is a retry of a message stored before, and the rest was stored.
        var stored: [(proposed: StoredMessage, stored: StoredMessage, completion: Completion?)] = []
        var refused: [String: Result<StoredMessage, any Error>] = [:]
        for ((proposed, (draft, completion)), outcome) in zip(zip(messages, committing), outcomes) {
            switch outcome {
            case .success(let message): stored.append((proposed, message, completion))
            case .failure(let refusal):
                let answer = await self.answer(refused: draft, with: refusal)
                if let key = RecentAcks.key(draft) { refused[key] = answer }
                completion?(answer)
            }
        }
        if !stored.isEmpty {
            self.metrics.commitDuration.record(duration: ContinuousClock.now - started)
            self.metrics.batchSize.record(stored.count)
            self.metrics.committed.increment(by: stored.count)
        }
        // What comes back with another id is an original the store found (a retry committed through another node):
        // it was delivered when it was committed.
        let new = stored.filter { $0.proposed.id == $0.stored.id }.map(\.stored)
        for (proposed, original, _) in stored where proposed.id != original.id {
            self.recentAcks.remember(original)
        }
        if new.first?.seq == self.nextSeq && self.held.isEmpty {
            self.deliver(new)  // the usual case: nothing committed elsewhere since this room's last delivery
        } else if let last = new.last {
            for message in new { self.held[message.seq] = message }
            await self.deliverStored(upTo: last.seq)
        }
        for (_, message, completion) in stored { completion?(.success(message)) }
        for (key, completion) in repeats {
            completion?(self.recentAcks[key].map { .success($0) } ?? refused[key] ?? .failure(Errors.lostRetry))
        }
    }

    /// Delivers every committed event up to `seq` not delivered yet, in order: those held from this room's own
    /// commits, and the others (committed by other nodes) read from the store. If the store cannot be read, what is
    /// missing stays undelivered, and what comes after it held, until the next commit or catch-up reads it.
    private func deliverStored(upTo seq: Int64) async {
        while self.nextSeq <= seq {
            if let message = self.held.removeValue(forKey: self.nextSeq) {
                self.deliver([message])
                continue
            }
            let heldAfter = self.held.keys.filter { $0 > self.nextSeq }.min() ?? (seq + 1)
            let end = min(heldAfter, seq + 1, self.nextSeq + Int64(Self.catchUpPage))
            let missing: [StoredMessage]
            do {
                missing = try await self.fromStore {
                    try await self.store.page(in: self.id, before: end, limit: Int(end - self.nextSeq))
                }
            } catch {
                self.logger.error("could not read events \(self.nextSeq)..<\(end) committed elsewhere: \(error)")
                return
            }
            let inOrder = missing.drop { $0.seq < self.nextSeq }
            guard inOrder.first?.seq == self.nextSeq else {
                self.logger.error("the store has no event \(self.nextSeq) although it numbered events up to \(seq)")
                return
            }
            var contiguous: [StoredMessage] = []
            for message in inOrder where message.seq == self.nextSeq + Int64(contiguous.count) {
                contiguous.append(message)
            }
            self.deliver(contiguous)
        }
    }

    /// Hands committed events, the next ones in `seq` order, to the members, and remembers them. A message that
    /// moved its sender's read position (``StoredMessage/marksRead``) is followed by its `receipt`, in the same
    /// write to each member: every node does this for every such message, its own and those it reads back.
    private func deliver(_ messages: [StoredMessage]) {
        guard let last = messages.last else { return }
        self.nextSeq = last.seq + 1
        if !self.lastTyping.isEmpty {
            // A sender's message ends their typing, so their next `typing` is forwarded at once.
            for message in messages { self.lastTyping[message.sender.id] = nil }
        }
        var events: [RoomEvent] = []
        events.reserveCapacity(messages.count * 2)
        for message in messages {
            self.recent.record(message)
            self.recentAcks.remember(message)
            events.append(.message(message))
            if message.marksRead {
                events.append(.receipt(room: self.id, user: message.sender.id, seq: message.seq))
            }
        }
        self.members.deliver(events)
    }

    /// The answer to a draft that the rules or the store refused with `refusal`: the stored original when the draft
    /// is a retry of one (its target changed since it was stored: a delete's own target is deleted, by the delete),
    /// so it gets its first answer again; else the refusal. Rare, so looked up only then. When the lookup fails, the
    /// answer is its failure: whether the draft was stored before cannot be told, so it is not refused.
    private func answer(refused draft: MessageDraft, with refusal: any Error) async -> Result<StoredMessage, any Error>
    {
        guard let clientMsgID = draft.clientMsgID else { return .failure(refusal) }
        do {
            guard
                let original = try await self.fromStore({
                    try await self.store.message(from: draft.sender.id, clientMsgID: clientMsgID)
                })
            else { return .failure(refusal) }
            self.recentAcks.remember(original)
            return .success(original)
        } catch {
            return .failure(error)
        }
    }

    /// Runs one store call, unless one in this round already missed its deadline (``storeNotAnswering``).
    private func fromStore<Value>(_ call: () async throws -> Value) async throws -> Value {
        if let storeNotAnswering { throw storeNotAnswering }
        do {
            return try await call()
        } catch let error as DeadlineExceeded {
            self.storeNotAnswering = error
            throw error
        }
    }

    public enum Errors: Error {
        /// A retry repeated within one batch found no original (cannot happen once the original is stored).
        case lostRetry
    }
}
