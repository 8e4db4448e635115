import ChatProtocol
import DequeModule
import NIOCore

/// The last few committed messages of a room, in their current state, kept so that a joining tutorial client gets
/// its history burst without a database read, and rendered at most once per wire format.
struct RecentMessages {
    private struct Entry {
        let message: StoredMessage
        var rendered: [ObjectIdentifier: ByteBuffer?] = [:]
    }

    let capacity: Int
    private var entries: Deque<Entry> = []

    init(capacity: Int, messages: [StoredMessage] = []) {
        self.capacity = capacity
        for message in messages.filter(\.isVisibleMessage).suffix(capacity) {
            self.entries.append(Entry(message: message))
        }
    }

    /// Keeps a new message, or applies an edit or delete to the message it targets (dropping what was rendered of
    /// it). A deleted message is forgotten: tutorial clients never see it.
    mutating func record(_ event: StoredMessage) {
        guard event.kind == .message else {
            // Tutorial clients see neither reactions, previews nor pins: what was rendered stays right.
            guard event.kind != .reaction, event.kind != .preview, event.kind != .pin,
                let index = self.entries.firstIndex(where: { $0.message.seq == event.target })
            else { return }
            var message = self.entries[index].message
            message.apply(event)
            if message.deleted {
                self.entries.remove(at: index)
            } else {
                self.entries[index] = Entry(message: message)
            }
            return
        }
        guard self.capacity > 0 else { return }
        if self.entries.count == self.capacity {
            self.entries.removeFirst()
        }
        self.entries.append(Entry(message: event))
    }

    /// The last `limit` messages as `renderer` shows them, oldest first.
    mutating func payloads(limit: Int, renderer: any EventRenderer) -> [ByteBuffer] {
        let key = ObjectIdentifier(renderer)
        var payloads: [ByteBuffer] = []
        for index in self.entries.indices.suffix(limit) {
            if self.entries[index].rendered[key] == nil {
                self.entries[index].rendered[key] = .some(renderer.render(.message(self.entries[index].message)))
            }
            if let payload = self.entries[index].rendered[key] ?? nil {
                payloads.append(payload)
            }
        }
        return payloads
    }
}
