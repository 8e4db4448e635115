import ChatCore
import ChatProtocol
import Foundation

/// What a member keeps for themselves in a room, on every device (PROTOCOL.md §7.5): the room pinned to the top of
/// their list, the draft they left in it, and a mark of unread. Room summaries carry them.
public struct RoomPreferences: Sendable {
    let access: RoomAccess
    /// A draft is a message not sent yet: at most what a message may be.
    let maxDraftBytes: Int

    public init(access: RoomAccess, maxDraftBytes: Int) {
        self.access = access
        self.maxDraftBytes = maxDraftBytes
    }

    /// Pins the room to the top of my list, or unpins it.
    public func setPinned(_ pinned: Bool, in id: RoomID, for user: UUID) async throws {
        try await StoreUnavailable.guarding("the pin could not be saved") {
            let room = try await self.access.room(id, for: user)
            guard try await self.access.directory.setPinned(pinned, of: user, in: room.id) else {
                throw RoomAccessDenied.forbidden
            }
        }
    }

    /// Marks the room unread in my list (on every device), or clears the mark; reading further clears it too.
    public func setMarkedUnread(_ marked: Bool, in id: RoomID, for user: UUID) async throws {
        try await StoreUnavailable.guarding("the mark could not be saved") {
            let room = try await self.access.room(id, for: user)
            guard try await self.access.directory.setMarkedUnread(marked, of: user, in: room.id) else {
                throw RoomAccessDenied.forbidden
            }
        }
    }

    /// Keeps my draft in the room; an empty one (or only whitespace) is none.
    public func setDraft(_ request: DraftRequest, in id: RoomID, for user: UUID) async throws {
        let text = MessageText.removingControlCharacters(request.text)
        guard text.utf8.count <= self.maxDraftBytes else {
            throw Refusal(kind: .tooLarge, code: .tooLong, message: "A draft is at most \(self.maxDraftBytes) bytes.")
        }
        try await StoreUnavailable.guarding("the draft could not be saved") {
            let room = try await self.access.room(id, for: user)
            let draft = text.allSatisfy(\.isWhitespace) ? nil : text
            guard try await self.access.directory.setDraft(draft, of: user, in: room.id) else {
                throw RoomAccessDenied.forbidden
            }
        }
    }
}
