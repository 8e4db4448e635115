import ChatCore
import ChatProtocol
import Foundation

/// `DELETE /api/v1/rooms/{id}/messages/{seq}/preview` (PROTOCOL.md §9.15): the sender of a message removes its link
/// preview; every member sees a `preview` event without one.
public struct RemovePreview: Sendable {
    let access: RoomAccess
    let hub: Hub

    public init(access: RoomAccess, hub: Hub) {
        self.access = access
        self.hub = hub
    }

    public func callAsFunction(_ seq: Int64, in room: RoomID, by sender: Sender) async throws {
        try await self.access.requireMember(sender.id, of: room)
        do {
            _ = try await self.hub.room(room).commit(
                MessageDraft(sender: sender, body: .preview(target: seq, preview: nil)))
        } catch RoomRejection.notYours {
            throw Refusal(
                kind: .notAllowed, code: .notYours, message: "Only the message's sender may remove its preview.")
        } catch RoomRejection.badTarget {
            throw Refusal.invalid(.badTarget, "Message \(seq) is no message of this room, or it has no preview.")
        } catch let refusal as RoomRejection {
            throw Refusal.invalid(.badTarget, "The room refused the change: \(refusal).")
        } catch {
            throw StoreUnavailable("the preview could not be removed", underlying: error)
        }
    }
}
