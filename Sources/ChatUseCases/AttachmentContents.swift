import NIOCore

/// Where the bytes of attachments are kept, by content (SHA-256): files in a directory (`AttachmentFiles`), or
/// chunks in PostgreSQL (`PostgresAttachmentContents`, `--attachments-store postgres`). Each is kept once, however
/// many attachments share it.
public protocol AttachmentContents: Sendable {
    /// Keeps the complete upload in the file at `path` (`size` bytes) as the content `sha256`, or drops it when
    /// that content is kept already. The file is gone afterwards either way.
    func keep(fileAt path: String, size: Int, sha256: String) async throws
    /// Removes contents no attachment refers to any more.
    func remove(_ sha256s: [String]) async throws
    /// The bytes `range` (offsets within the content, both included) of the content `sha256`.
    func read(_ sha256: String, range: ClosedRange<Int>) async throws -> AttachmentBody
}

/// The bytes of an attachment as its store hands them over.
public enum AttachmentBody: Sendable {
    /// The whole content is this file: the transport streams it as files are served (the range it asks for, its
    /// validators), which the operating system does best.
    case file(path: String)
    /// The range asked for, in order, in buffers of the store's size.
    case bytes(AttachmentByteStream)
}

/// Bytes read as they are sent: the next buffer is read only when the one before it was taken, so a slow client
/// holds one buffer, not the whole content.
public struct AttachmentByteStream: Sendable {
    private let pull: @Sendable () async throws -> ByteBuffer?

    /// `pull` answers the next buffer, `nil` after the last; it is called by one task, one call at a time.
    public init(_ pull: @escaping @Sendable () async throws -> ByteBuffer?) {
        self.pull = pull
    }

    /// The next buffer, or `nil` at the end.
    public func next() async throws -> ByteBuffer? {
        try await self.pull()
    }
}
