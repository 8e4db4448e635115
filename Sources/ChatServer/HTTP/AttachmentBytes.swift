import ChatCore
import NIOPosix
import Vapor

/// Where the bytes of attachments are kept, by content (SHA-256): files in a directory (``AttachmentFiles``), or
/// chunks in PostgreSQL (`PostgresAttachmentBytes`, `--attachments-store postgres`). Uploads are received into a
/// temporary file either way.
protocol AttachmentBytes: Sendable {
    /// Where this node receives uploads.
    var temporaryDirectory: String { get }
    var threadPool: NIOThreadPool { get }
    /// Keeps a received upload under its content (or drops it when that content is kept already), and removes its
    /// temporary file.
    func keep(_ upload: ReceivedUpload) async throws
    /// Removes the contents no attachment refers to any more.
    func remove(_ sha256s: [String]) async throws
    /// The bytes of `stored`, whole or the range the request asks for.
    func response(for stored: StoredAttachment, mediaType: HTTPMediaType, request: Request) async throws -> Response
    /// Deletes uploads that a crash or a shutdown of this node left half received.
    func removeTemporaryFiles()
}
