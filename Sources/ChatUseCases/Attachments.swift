import ChatCore
import ChatProtocol
import Foundation
import NIOCore

/// Attachments (PROTOCOL.md §9.3): the upload quota, what an upload is (its type from its bytes), its record, and
/// who may read it. The bytes are received and kept by the transport's storage (`AttachmentBytes`), between
/// ``check(_:allowance:)`` and ``record(_:uploader:sha256:)``.
public struct Attachments: Sendable {
    let store: any AttachmentStore
    let directory: any RoomDirectory
    let authenticate: Authenticate
    /// The most bytes one account's uploads may take in all.
    public let quotaBytes: Int

    public init(store: any AttachmentStore, directory: any RoomDirectory, authenticate: Authenticate, quotaBytes: Int) {
        self.store = store
        self.directory = directory
        self.authenticate = authenticate
        self.quotaBytes = quotaBytes
    }

    /// An upload as received, before it is kept.
    public struct Upload: Sendable {
        public let name: String
        public let size: Int
        /// The first bytes, for ``ContentSniffer``.
        public let prefix: ByteBuffer
        /// Whether the request said the upload is an image.
        public let declaredImage: Bool

        public init(name: String, size: Int, prefix: ByteBuffer, declaredImage: Bool) {
            self.name = name
            self.size = size
            self.prefix = prefix
            self.declaredImage = declaredImage
        }
    }

    /// How many more bytes `user` may upload; a ``Refusal`` when the quota is spent.
    public func allowance(for user: UUID) async throws -> Int64 {
        let used = try await StoreUnavailable.guarding("the upload quota could not be read") {
            try await self.store.bytesStored(by: user)
        }
        guard used < self.quotaBytes else { throw self.quotaExceeded }
        return Int64(self.quotaBytes) - used
    }

    /// The attachment an upload becomes, or why it may not be kept.
    public func check(_ upload: Upload, allowance: Int64) throws(Refusal) -> Attachment {
        guard upload.size > 0 else { throw .invalid(.emptyUpload, "The upload is empty.") }
        guard Int64(upload.size) <= allowance else { throw self.quotaExceeded }
        let detected = ContentSniffer.detect(upload.prefix)
        if upload.declaredImage, !detected.isImage {
            throw Refusal(
                kind: .wrongType, code: .unsupportedType,
                message: "The upload is declared as an image but is not a PNG, JPEG, GIF or WebP image.")
        }
        return Attachment(
            id: UUID(), name: Self.cleanName(upload.name), contentType: detected.contentType, size: Int64(upload.size),
            width: detected.width, height: detected.height)
    }

    /// Records an upload whose bytes are kept under `sha256`.
    public func record(_ attachment: Attachment, uploader: UUID, sha256: String) async throws {
        try await StoreUnavailable.guarding("the attachment could not be saved") {
            try await self.store.save(StoredAttachment(attachment: attachment, uploader: uploader, sha256: sha256))
        }
    }

    /// The attachment `id` names, when the bearer of `token` may read it: its uploader, or a member of a room it was
    /// sent in; anyone (no token) for one sent in the lobby. Anything else is the same refusal, so nothing leaks.
    public func readable(_ id: UUID?, token: String?) async throws -> StoredAttachment {
        let forbidden = Refusal(
            kind: .notAllowed, code: .forbidden, message: "You cannot see that attachment, or it does not exist.")
        return try await StoreUnavailable.guarding("the attachment could not be read") {
            guard let id, let stored = try await self.store.attachment(id) else { throw forbidden }
            var user: UUID?
            if let token { user = try await self.authenticate(token: token)?.account.id }
            guard try await self.store.canRead(stored, user: user, directory: self.directory) else { throw forbidden }
            return stored
        }
    }

    private var quotaExceeded: Refusal {
        Refusal(
            kind: .tooLarge, code: .quotaExceeded,
            message: "Your uploads may take at most \(self.quotaBytes) bytes in all; this one would go over.")
    }

    /// A file name safe to store and to send back in a header: no path, no control characters, at most 255
    /// characters.
    static func cleanName(_ name: String) -> String {
        let base = name.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        let cleaned = String(base.unicodeScalars.filter { $0.properties.generalCategory != .control }.prefix(255))
        return cleaned.isEmpty ? "file" : cleaned
    }
}
