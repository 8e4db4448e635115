import ChatCore
import ChatProtocol
import Foundation

/// Removing what others said (PROTOCOL.md §10.5): an administrator deletes any message of any room, the lobby's
/// anonymous ones included. The removal is a `delete` event of the room, sent by the one who removed it, so every
/// member's client folds it as it folds a deletion, and can tell it was not the author's.
public struct Moderation: Sendable {
    let directory: any RoomDirectory
    let hub: Hub
    let audit: any AuditLog

    public init(directory: any RoomDirectory, hub: Hub, audit: any AuditLog) {
        self.directory = directory
        self.hub = hub
        self.audit = audit
    }

    static let unknownRoom = Refusal(kind: .notFound, code: .notFound, message: "No such room.")

    /// Deletes message `seq` of the room. The event is the record of who removed what; the audit log's entry
    /// follows it. Returns `false` when that entry could not be written: the removal stands (the caller logs it).
    public func removeMessage(_ seq: Int64, in id: RoomID, by actor: Administration.Actor) async throws -> Bool {
        try await StoreUnavailable.guarding("the message could not be removed") {
            guard let room = try await self.directory.room(id) else { throw Self.unknownRoom }
            let hubRoom = try await self.hub.room(room.id)
            let draft = MessageDraft(
                sender: Sender(name: actor.name, id: actor.id ?? UUID()), body: .removal(target: seq))
            do {
                try await hubRoom.commit(draft)
            } catch RoomRejection.badTarget {
                throw Refusal.invalid(.badTarget, "No message \(seq) in this room, or it is deleted already.")
            }
        }
        let entry = AuditEntry(
            actor: actor.id, actorName: actor.name, action: "delete-message", target: "\(id.rawValue)/\(seq)",
            address: actor.address, date: Date())
        do {
            try await self.audit.record(entry)
            return true
        } catch {
            return false
        }
    }
}
