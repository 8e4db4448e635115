import Foundation

/// An upload as stored: what messages show of it, who uploaded it, and the name of its bytes.
public struct StoredAttachment: Sendable, Equatable {
    public var attachment: Attachment
    public var uploader: UUID
    /// The SHA-256 of the bytes, in lowercase hex: the bytes are kept once per content, under this name.
    public var sha256: String

    public init(attachment: Attachment, uploader: UUID, sha256: String) {
        self.attachment = attachment
        self.uploader = uploader
        self.sha256 = sha256
    }
}

/// Durable records of uploads and of the rooms they were sent in (PROTOCOL.md §9.3). The bytes themselves live in
/// files beside the database.
public protocol AttachmentStore: Sendable {
    func save(_ attachment: StoredAttachment) async throws
    func attachment(_ id: UUID) async throws -> StoredAttachment?
    /// The rooms where a message carrying the attachment was committed.
    func rooms(of attachment: UUID) async throws -> [RoomID]
    /// The bytes of every attachment `user` uploaded, for the upload quota.
    func bytesStored(by user: UUID) async throws -> Int64
    /// Forgets the attachments uploaded before `cutoff` that no room links to (never sent, or their messages were
    /// deleted) and no account or room wears as its picture, and returns the SHA-256 names of the contents no
    /// attachment refers to any more, whose files may go.
    func deleteUnsent(uploadedBefore cutoff: Date) async throws -> [String]
}

extension AttachmentStore {
    /// Whether `user` may read an attachment: its uploader, or a member of a room it was sent in. One sent in the
    /// lobby is readable by anyone (`user` may be `nil`), as the lobby is to the tutorial clients.
    public func canRead(_ attachment: StoredAttachment, user: UUID?, directory: any RoomDirectory) async throws -> Bool
    {
        if let user, attachment.uploader == user { return true }
        for room in try await self.rooms(of: attachment.attachment.id) {
            if room == .lobby { return true }
            if let user, try await directory.isMember(user, of: room) { return true }
        }
        return false
    }
}
