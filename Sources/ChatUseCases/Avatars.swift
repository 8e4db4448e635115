import ChatCore
import ChatProtocol
import Foundation

/// Pictures for accounts and rooms (PROTOCOL.md §6.5, §7.7). A picture is an image upload kept as attachments are,
/// then worn by its account or room; it is served to anyone by an address that changes with it, so it may be cached
/// for good. Replacing or removing one leaves the old upload to ``Attachments/forgetUnsent(now:)``.
public struct Avatars: Sendable {
    let store: any AvatarStore
    let attachments: Attachments
    let access: RoomAccess

    /// The largest picture accepted: a client crops and scales to 256×256 first, so this is generous.
    public static let maxBytes = 2 * 1024 * 1024

    public init(store: any AvatarStore, attachments: Attachments, access: RoomAccess) {
        self.store = store
        self.attachments = attachments
        self.access = access
    }

    /// An image received into a temporary file, not yet kept.
    public struct Received: Sendable {
        public let upload: Attachments.Upload
        public let path: String
        public let sha256: String

        public init(upload: Attachments.Upload, path: String, sha256: String) {
            self.upload = upload
            self.path = path
            self.sha256 = sha256
        }
    }

    /// Makes `image` my picture → my profile with it.
    public func setMine(_ image: Received, account: Account) async throws -> UserProfile {
        let kept = try await self.keep(image, uploader: account.id)
        try await StoreUnavailable.guarding("the picture could not be saved") {
            try await self.store.setAvatar(kept, ofAccount: account.id)
        }
        var changed = account
        changed.avatar = kept
        return changed.profile
    }

    /// Goes back to my colour and initials → my profile.
    public func removeMine(account: Account) async throws -> UserProfile {
        try await StoreUnavailable.guarding("the picture could not be removed") {
            try await self.store.setAvatar(nil, ofAccount: account.id)
        }
        var changed = account
        changed.avatar = nil
        return changed.profile
    }

    /// Makes `image` the picture of a channel or group that `member` moderates → its address.
    public func setRoom(_ id: RoomID, _ image: Received, by member: UUID) async throws -> AvatarPayload {
        let room = try await self.editableRoom(id, by: member)
        let kept = try await self.keep(image, uploader: member)
        try await StoreUnavailable.guarding("the picture could not be saved") {
            try await self.store.setAvatar(kept, ofRoom: room.id)
        }
        return AvatarPayload(avatarURL: AvatarAddress.path(of: kept))
    }

    /// Takes a channel's or group's picture away.
    public func removeRoom(_ id: RoomID, by member: UUID) async throws {
        let room = try await self.editableRoom(id, by: member)
        try await StoreUnavailable.guarding("the picture could not be removed") {
            try await self.store.setAvatar(nil, ofRoom: room.id)
        }
    }

    /// The picture `id` names, when it is someone's or some room's now; the same refusal otherwise.
    public func picture(_ id: UUID?) async throws -> StoredAttachment {
        let unknown = Refusal(kind: .notFound, code: .notFound, message: "No account or room wears that picture.")
        return try await StoreUnavailable.guarding("the picture could not be read") {
            guard let id, try await self.store.isAvatar(id),
                let stored = try await self.attachments.store.attachment(id)
            else { throw unknown }
            return stored
        }
    }

    /// Checks and keeps an image upload → its attachment's id.
    private func keep(_ image: Received, uploader: UUID) async throws -> UUID {
        let allowance = try await self.attachments.allowance(for: uploader)
        let attachment = try self.attachments.check(image.upload, allowance: allowance)
        guard attachment.isImage else {
            throw Refusal(
                kind: .wrongType, code: .unsupportedType, message: "A picture is a PNG, JPEG, GIF or WebP image.")
        }
        try await self.attachments.keep(attachment, fileAt: image.path, sha256: image.sha256, uploader: uploader)
        return attachment.id
    }

    /// A channel or group whose owner or moderator `member` is: a direct room looks like the other member, and the
    /// lobby keeps its look.
    private func editableRoom(_ id: RoomID, by member: UUID) async throws -> RoomInfo {
        try await StoreUnavailable.guarding("the room could not be read") {
            let room = try await self.access.room(id, for: member)
            switch room.kind {
            case .direct:
                throw Refusal.invalid(.cannotRename, "A direct room shows the other member's picture.")
            case .channel where room.id == .lobby:
                throw Refusal(kind: .notAllowed, code: .notAllowed, message: "The lobby keeps its picture.")
            case .channel, .group:
                let role = try await self.access.directory.standing(of: member, in: room.id)?.role ?? .member
                guard role >= .moderator else {
                    throw Refusal(
                        kind: .notAllowed, code: .notAllowed,
                        message: "Only the room's owner and moderators may change its picture.")
                }
                return room
            }
        }
    }
}

/// Where a picture is served (PROTOCOL.md §6.5).
public enum AvatarAddress {
    public static func path(of attachment: UUID) -> String {
        APIRoute.avatar.path(attachment.uuidString.lowercased())
    }
}
