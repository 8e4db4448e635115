import DequeModule
import NIOCore

/// The last few committed messages of a room, kept so that a joining client gets its history burst without a
/// database read, and rendered at most once per wire format.
struct RecentMessages {
    private struct Entry {
        let message: StoredMessage
        var rendered: [ObjectIdentifier: ByteBuffer?] = [:]
    }

    let capacity: Int
    private var entries: Deque<Entry> = []

    init(capacity: Int, messages: [StoredMessage] = []) {
        self.capacity = capacity
        for message in messages.suffix(capacity) {
            self.entries.append(Entry(message: message))
        }
    }

    mutating func append(_ message: StoredMessage) {
        guard self.capacity > 0 else { return }
        if self.entries.count == self.capacity {
            self.entries.removeFirst()
        }
        self.entries.append(Entry(message: message))
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
