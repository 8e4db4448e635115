import DequeModule
import Foundation

/// The last acknowledged messages that carried a client id, by `(sender, clientMsgID)`: answers a retry without a
/// database read. Bounded; the store answers for anything older.
struct RecentAcks {
    private var messages: [String: StoredMessage] = [:]
    private var order: Deque<String> = []
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The key of a draft that carries a client id.
    static func key(_ draft: MessageDraft) -> String? {
        draft.clientMsgID.map { "\(draft.sender.id.uuidString)|\($0)" }
    }

    subscript(key: String) -> StoredMessage? {
        self.messages[key]
    }

    mutating func remember(_ message: StoredMessage) {
        guard let clientMsgID = message.clientMsgID else { return }
        let key = "\(message.sender.id.uuidString)|\(clientMsgID)"
        guard self.messages.updateValue(message, forKey: key) == nil else { return }
        self.order.append(key)
        if self.order.count > self.capacity, let oldest = self.order.popFirst() {
            self.messages[oldest] = nil
        }
    }
}
