import ChatCore
import Foundation

/// `--retention-days N` (PROTOCOL.md §10.8): messages older than N days are deleted by `delete` events of their
/// rooms, sent by the server (``TutorialIdentity/server``), so every client folds them as it folds a deletion and the
/// attachments go with them.
public struct Retention: Sendable {
    let aged: any AgedMessages
    let hub: Hub
    public let days: Int

    public init(aged: any AgedMessages, hub: Hub, days: Int) {
        self.aged = aged
        self.hub = hub
        self.days = days
    }

    static let batch = 500

    /// Deletes every message older than `days` before `now`; how many it deleted.
    public func sweep(now: Date) async throws -> Int {
        let cutoff = now.addingTimeInterval(-Double(self.days) * 86_400)
        var deleted = 0
        while true {
            let page = try await StoreUnavailable.guarding("old messages could not be read") {
                try await self.aged.messages(olderThan: cutoff, limit: Self.batch)
            }
            guard !page.isEmpty else { return deleted }
            let before = deleted
            for (room, seq) in page where try await self.remove(seq, in: room) { deleted += 1 }
            // A page of which nothing could be deleted would come back the same: stop until the next sweep.
            if deleted == before { return deleted }
        }
    }

    /// Whether the message was deleted now (`false`: it was already).
    private func remove(_ seq: Int64, in id: RoomID) async throws -> Bool {
        let room = try await self.hub.room(id)
        do {
            try await room.commit(MessageDraft(sender: TutorialIdentity.server, body: .removal(target: seq)))
            return true
        } catch RoomRejection.badTarget {
            return false
        }
    }
}
