import ChatProtocol
import Foundation

/// The messages of one room as a client shows them: `message` events in `seq` order, with the edits, deletes and
/// reactions that target them applied (PROTOCOL.md §9.1, through ``EventFolding``).
///
/// Applying an event twice changes nothing, so a page of history and the live stream can overlap. An event
/// whose target is not loaded is ignored: history always shows a message in its current state.
///
/// A message from a page of history is in its state when the page was read, which already includes every change
/// in that page and may include later ones. So each message remembers the `seq` its state is known to include,
/// and a change applies only when it is newer: an old edit met in an older page never undoes a newer edit.
public struct Timeline: Sendable, Equatable {
    /// The loaded messages, oldest first.
    public private(set) var messages: [MessagePayload] = []
    /// For each loaded message's `seq`, the newest event its state is known to include.
    private var stateSeq: [Int64: Int64] = [:]

    /// An empty timeline.
    public init() {}

    /// The smallest loaded `seq`: the `before` of the next history page.
    public var oldestSeq: Int64? { self.messages.first?.seq }

    /// The message with `seq`, if loaded.
    public func message(seq: Int64) -> MessagePayload? {
        self.index(of: seq).map { self.messages[$0] }
    }

    /// Applies one event; returns the `seq` of the message it added or changed, or `nil` if nothing changed.
    @discardableResult
    public mutating func apply(_ event: MessagePayload) -> Int64? {
        self.apply(event, stateIncludes: event.seq)
    }

    /// Applies a page of history (oldest first), older or newer than what is loaded.
    public mutating func apply(page: [MessagePayload]) {
        guard let newest = page.map(\.seq).max() else { return }
        for event in page { self.apply(event, stateIncludes: newest) }
    }

    /// Applies one event; a message it adds is known to include every event up to `stateIncludes`.
    @discardableResult
    private mutating func apply(_ event: MessagePayload, stateIncludes: Int64) -> Int64? {
        switch event.eventKind {
        case .message:
            guard self.index(of: event.seq) == nil else { return nil }
            let position = self.messages.firstIndex { $0.seq > event.seq } ?? self.messages.endIndex
            self.messages.insert(event, at: position)
            self.stateSeq[event.seq] = stateIncludes
            return event.seq
        case .edit, .delete, .reaction, .preview, .pin:
            return self.update(event)
        case .rename, .joined, .left, .invited, .removed, .banned, .role, nil:
            // The room's, not a message's; or a kind this client does not know: its seq still counts.
            return nil
        }
    }

    private func index(of seq: Int64) -> Int? {
        // Binary search: messages are sorted by seq.
        var low = 0
        var high = self.messages.count - 1
        while low <= high {
            let middle = (low + high) / 2
            let found = self.messages[middle].seq
            if found == seq { return middle }
            if found < seq { low = middle + 1 } else { high = middle - 1 }
        }
        return nil
    }

    /// Applies a change to its target (``EventFolding``), if loaded and if its state does not include the change
    /// already.
    private mutating func update(_ event: MessagePayload) -> Int64? {
        guard let target = event.target, let index = self.index(of: target),
            event.seq > self.stateSeq[target, default: 0]
        else { return nil }
        self.stateSeq[target] = event.seq
        let before = self.messages[index]
        EventFolding.apply(event, to: &self.messages[index])
        return self.messages[index] == before ? nil : target
    }
}
