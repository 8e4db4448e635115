import Metrics
import NIOConcurrencyHelpers
import NIOCore

/// The room's inbox: commands are enqueued synchronously from any thread and processed in order by the room's one
/// task, which parks when there is nothing to do (see ``Room``).
extension Room {
    nonisolated func enqueue(_ command: Command) {
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
    func run() async {
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
    func drain() async {
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

    func process(_ commands: [Command]) async {
        self.storeNotAnswering = nil
        var batch: [(MessageDraft, Completion?)] = []
        var resumes: [Resume] = []
        for command in commands {
            if case .resume(let sink, let after, let maxReplay) = command {
                // Resumes in a row share one read of the store (a node's clients coming back together).
                resumes.append(Resume(sink: sink, after: after, maxReplay: maxReplay))
                continue
            }
            if !resumes.isEmpty {
                await self.resume(resumes)
                resumes.removeAll(keepingCapacity: true)
            }
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
        if !resumes.isEmpty {
            await self.resume(resumes)
        }
    }

    /// Replays to each resuming connection what it missed, then makes it a member.
    private func resume(_ resumes: [Resume]) async {
        await self.replay(resumes)
        for resume in resumes { self.members.insert(resume.sink) }
    }

    /// Tells the members here, and the other nodes' copies of the room unless it came from one of them.
    func announce(_ change: PresenceChange, relayed: Bool) {
        self.members.deliver([.presence(change)])
        if !relayed { self.relay.publish(.announcement(room: self.id, change: change)) }
    }

    func apply(_ command: Command) async {
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
            await self.resume([Resume(sink: sink, after: after, maxReplay: maxReplay)])
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
}
