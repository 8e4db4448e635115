import ChatProtocol
import Foundation
import Logging
import Metrics

/// Committing: a batch of drafts is numbered, checked against the rules, written to the store as one batch, and
/// answered; only then is it delivered (Room+Delivery.swift).
extension Room {
    func commit(_ drafts: [(MessageDraft, Completion?)]) async {
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
                var event = try entry.0.event(
                    room: self.id, seq: firstSeq + Int64(messages.count), date: date, target: target)
                // Only a text with an `@` costs a lookup of who it names.
                if event.kind == .message || event.kind == .edit, event.forwardedFrom == nil,
                    let request = MentionRequest(text: event.text, sender: event.sender)
                {
                    event.mentions = try await self.fromStore {
                        try await self.store.resolveMentions(request, in: self.id)
                    }
                }
                messages.append(event)
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
        if !new.isEmpty { self.observer.committed(new) }
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

    /// The answer to a draft that the rules or the store refused with `refusal`: the stored original when the draft
    /// is a retry of one (its target changed since it was stored: a delete's own target is deleted, by the delete),
    /// so it gets its first answer again; else the refusal. Rare, so looked up only then. When the lookup fails, the
    /// answer is its failure: whether the draft was stored before cannot be told, so it is not refused.
    func answer(refused draft: MessageDraft, with refusal: any Error) async -> Result<StoredMessage, any Error> {
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
    func fromStore<Value>(_ call: () async throws -> Value) async throws -> Value {
        if let storeNotAnswering { throw storeNotAnswering }
        do {
            return try await call()
        } catch let error as DeadlineExceeded {
            self.storeNotAnswering = error
            throw error
        }
    }
}
