import Logging
import Metrics
import NIOCore

/// Delivery: committed events reach the members strictly in `seq` order, after the store has them; a resuming
/// member is replayed what it missed first.
extension Room {
    /// A connection that has seen everything up to `after` and asks for the rest.
    struct Resume {
        let sink: any EventSink
        let after: Int64
        let maxReplay: Int
    }

    /// Sends each resuming connection every message after its `after`, then its `resumed` marker. One read of the
    /// store serves them all, from the earliest `after` among those with at most their `maxReplay` missing (the
    /// others get `complete: false` and nothing else), and each message is rendered once per wire format: when a
    /// node dies, its clients come back to the others in thousands, and one read each, in turn, kept the room (and
    /// its live messages) waiting for seconds.
    func replay(_ resumes: [Resume]) async {
        let latest = self.nextSeq - 1
        func missing(_ resume: Resume) -> Int64 { max(0, latest - max(resume.after, 0)) }
        let replayed = resumes.filter { missing($0) <= Int64($0.maxReplay) }
        let deepest = replayed.map(missing).max() ?? 0
        var events: [StoredMessage] = []
        var readFailed = false
        if deepest > 0 {
            do {
                events = try await self.fromStore {
                    try await self.store.page(in: self.id, before: latest + 1, limit: Int(deepest))
                }
            } catch {
                self.logger.error("could not read messages to replay: \(error)")
                readFailed = true
            }
        }
        var rendered: [ObjectIdentifier: [ByteBuffer?]] = [:]
        for resume in resumes {
            let complete = !readFailed && missing(resume) <= Int64(resume.maxReplay)
            var payloads: [ByteBuffer] = []
            if complete {
                let renderer = resume.sink.renderer
                let all = rendered[ObjectIdentifier(renderer)] ?? events.map { renderer.render(.message($0)) }
                rendered[ObjectIdentifier(renderer)] = all
                let first = events.firstIndex { $0.seq > resume.after } ?? events.endIndex
                payloads = all[first...].compactMap { $0 }
            }
            (complete ? self.metrics.resumesComplete : self.metrics.resumesIncomplete).increment()
            if let marker = resume.sink.renderer.render(
                .resumed(room: self.id, latestSeq: latest, complete: complete))
            {
                payloads.append(marker)
            }
            FanOut.write(payloads, to: [resume.sink], on: resume.sink.eventLoop)
        }
    }

    /// Delivers every committed event up to `seq` not delivered yet, in order: those held from this room's own
    /// commits, and the others (committed by other nodes) read from the store. If the store cannot be read, what is
    /// missing stays undelivered, and what comes after it held, until the next commit or catch-up reads it.
    func deliverStored(upTo seq: Int64) async {
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
    func deliver(_ messages: [StoredMessage]) {
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
}
