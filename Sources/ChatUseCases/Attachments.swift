import ChatCore
import ChatProtocol
import Foundation
import NIOCore

/// Attachments (PROTOCOL.md §9.3): the upload quota, what an upload is (its type from its bytes), keeping it, who
/// may read it and its bytes, and forgetting the uploads no message carries.
public struct Attachments: Sendable {
    let store: any AttachmentStore
    let contents: any AttachmentContents
    let directory: any RoomDirectory
    let authenticate: Authenticate
    /// The most bytes one account's uploads may take in all.
    public let quotaBytes: Int

    /// How long an upload may wait to be sent before it is forgotten (PROTOCOL.md §9.3).
    public static let unsentLifetime: Duration = .seconds(24 * 3600)

    public init(
        store: any AttachmentStore, contents: any AttachmentContents, directory: any RoomDirectory,
        authenticate: Authenticate, quotaBytes: Int
    ) {
        self.store = store
        self.contents = contents
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
        /// A recording's length in milliseconds, as the uploader measured it (`?duration=`); kept for audio only.
        public let declaredDurationMs: Int?

        public init(name: String, size: Int, prefix: ByteBuffer, declaredImage: Bool, declaredDurationMs: Int? = nil) {
            self.declaredDurationMs = declaredDurationMs
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

    /// The longest recording a voice message may say it is: an hour, in milliseconds.
    public static let maxDurationMs = 3_600_000

    /// The attachment an upload becomes, or why it may not be kept.
    public func check(_ upload: Upload, allowance: Int64) throws(Refusal) -> Attachment {
        guard upload.size > 0 else { throw .invalid(.emptyUpload, "The upload is empty.") }
        if let duration = upload.declaredDurationMs, !(1...Self.maxDurationMs).contains(duration) {
            throw .invalid(.invalidBody, "A duration is 1 to \(Self.maxDurationMs) milliseconds.")
        }
        guard Int64(upload.size) <= allowance else { throw self.quotaExceeded }
        let detected = ContentSniffer.detect(upload.prefix)
        if upload.declaredImage, !detected.isImage {
            throw Refusal(
                kind: .wrongType, code: .unsupportedType,
                message: "The upload is declared as an image but is not a PNG, JPEG, GIF or WebP image.")
        }
        return Attachment(
            id: UUID(), name: Self.cleanName(upload.name), contentType: detected.contentType, size: Int64(upload.size),
            width: detected.width, height: detected.height,
            durationMs: detected.isAudio ? upload.declaredDurationMs : nil)
    }

    /// The attachment `raw` names when `user` may send it in a message (one they uploaded, or one they can read
    /// already); `nil` when it is not one.
    public func sendable(_ raw: String, by user: UUID) async throws -> Attachment? {
        guard let id = UUID(uuidString: raw) else { return nil }
        return try await StoreUnavailable.guarding("the attachment could not be read") {
            guard let stored = try await self.store.attachment(id),
                try await self.store.canRead(stored, user: user, directory: self.directory)
            else { return nil }
            return stored.attachment
        }
    }

    /// Keeps an upload received into the file at `path` (whose content is `sha256`) as `attachment`: its bytes,
    /// then its record. The file is gone afterwards.
    public func keep(_ attachment: Attachment, fileAt path: String, sha256: String, uploader: UUID) async throws {
        try await StoreUnavailable.guarding("the attachment could not be saved") {
            try await self.contents.keep(fileAt: path, size: Int(attachment.size), sha256: sha256)
            try await self.store.save(StoredAttachment(attachment: attachment, uploader: uploader, sha256: sha256))
        }
    }

    /// The bytes `range` of an attachment the caller may read (``readable(_:token:)``).
    public func bytes(of stored: StoredAttachment, range: ClosedRange<Int>) async throws -> AttachmentBody {
        try await StoreUnavailable.guarding("the attachment's bytes could not be read") {
            try await self.contents.read(stored.sha256, range: range)
        }
    }

    /// Forgets the uploads older than ``unsentLifetime`` at `now` that no message carries (never sent, or their
    /// messages were deleted), records and bytes; returns how many contents went. An upload that is never sent
    /// cannot fill the disk.
    public func forgetUnsent(now: Date) async throws -> Int {
        try await StoreUnavailable.guarding("unsent attachments could not be forgotten") {
            let cutoff = now.addingTimeInterval(-Double(Self.unsentLifetime.components.seconds))
            let unused = try await self.store.deleteUnsent(uploadedBefore: cutoff)
            try await self.contents.remove(unused)
            return unused.count
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
