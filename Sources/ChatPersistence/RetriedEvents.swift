import ChatCore
import FluentSQL
import Foundation
import SQLKit

/// Retries in a batch: events whose sender already stored their `clientMsgID` (before a restart, through another
/// node, or longer ago than the room remembers). Each gets its original back instead of being stored again, as
/// ``MessageStore/append(_:isolation:)`` promises; both writers use this inside their write.
struct RetriedEvents {
    private struct Key: Hashable {
        let sender: UUID
        let clientMsgID: String
    }

    private let originals: [Key: StoredMessage]

    var isEmpty: Bool { self.originals.isEmpty }

    /// No retries: every event is fresh.
    static let none = RetriedEvents(originals: [:])

    /// Reads the originals of the batch's `(sender, clientMsgID)` pairs.
    static func read(for events: [StoredMessage], on sql: some SQLDatabase) async throws -> RetriedEvents {
        let keyed = events.filter { $0.clientMsgID != nil }
        guard !keyed.isEmpty else { return .none }
        let rows = try await sql.select().column(SQLLiteral.all).from(MessageRecord.schema)
            .where("client_msg_id", .in, keyed.compactMap(\.clientMsgID))
            .where("sender_id", .in, Array(Set(keyed.map(\.sender.id))))
            .all()
        // The query matches any of the senders with any of the ids; only the batch's own pairs count.
        let wanted = Set(
            keyed.compactMap { event in event.clientMsgID.map { Key(sender: event.sender.id, clientMsgID: $0) } })
        var originals: [Key: StoredMessage] = [:]
        for row in rows {
            let original = try MessageRecord.storedMessage(from: row)
            if let clientMsgID = original.clientMsgID,
                wanted.contains(Key(sender: original.sender.id, clientMsgID: clientMsgID))
            {
                originals[Key(sender: original.sender.id, clientMsgID: clientMsgID)] = original
            }
        }
        return RetriedEvents(originals: originals)
    }

    /// The batch as stored: each retry replaced by its original; the others (`fresh`, to be inserted) numbered from
    /// `first` on, in order.
    func numbering(_ events: [StoredMessage], from first: Int64) -> (stored: [StoredMessage], fresh: [StoredMessage]) {
        var stored: [StoredMessage] = []
        var fresh: [StoredMessage] = []
        for var event in events {
            if let clientMsgID = event.clientMsgID,
                let original = self.originals[Key(sender: event.sender.id, clientMsgID: clientMsgID)]
            {
                stored.append(original)
                continue
            }
            event.seq = first + Int64(fresh.count)
            fresh.append(event)
            stored.append(event)
        }
        return (stored, fresh)
    }
}
