import ChatCore
import Foundation
import Logging
import NIOCore
import PostgresNIO
import Vapor

/// `--attachments-store postgres`: attachment bytes in `attachment_chunks`, ``chunkBytes`` per row, so nodes need no
/// shared directory. Uploads are still received into a node-local temporary file (``AttachmentFiles``); keeping one
/// writes all its chunks in one transaction, so a content is in the database whole or not at all. Downloads stream
/// the chunks a request needs, one row at a time, with single byte ranges served as `206`.
struct PostgresAttachmentBytes: AttachmentBytes {
    /// Small enough that a row is never a burden in memory, large enough that a 10 MiB file is 40 rows.
    static let chunkBytes = 256 * 1024

    let receiving: AttachmentFiles
    let client: PostgresClient
    let logger: Logger

    var temporaryDirectory: String { self.receiving.temporaryDirectory }
    var threadPool: NIOThreadPool { self.receiving.threadPool }

    func keep(_ upload: ReceivedUpload) async throws {
        defer { try? FileManager.default.removeItem(atPath: upload.temporaryPath) }
        let descriptor = open(upload.temporaryPath, O_RDONLY)
        guard descriptor >= 0 else { throw CocoaError(.fileReadUnknown) }
        defer { close(descriptor) }
        try await self.client.withTransaction(logger: self.logger) { connection in
            let kept = try await connection.query(
                "SELECT 1 FROM attachment_chunks WHERE sha256 = \(upload.sha256) AND chunk = 0", logger: self.logger)
            for try await _ in kept { return }
            var chunk: Int32 = 0
            var offset = 0
            while offset < upload.size {
                let bytes = try await self.read(
                    descriptor, at: offset, count: min(Self.chunkBytes, upload.size - offset))
                try await connection.query(
                    """
                    INSERT INTO attachment_chunks (sha256, chunk, bytes) VALUES (\(upload.sha256), \(chunk), \(bytes))
                    ON CONFLICT DO NOTHING
                    """, logger: self.logger)
                offset += bytes.readableBytes
                chunk += 1
            }
        }
    }

    func remove(_ sha256s: [String]) async throws {
        guard !sha256s.isEmpty else { return }
        try await self.client.query("DELETE FROM attachment_chunks WHERE sha256 = ANY(\(sha256s))", logger: self.logger)
    }

    func response(for stored: StoredAttachment, mediaType: HTTPMediaType, request: Request) async throws -> Response {
        let size = Int(stored.attachment.size)
        let (first, last, partial) = Self.span(of: request.headers.range, size: size)
        let response = Response(status: partial ? .partialContent : .ok)
        response.headers.contentType = mediaType
        response.headers.replaceOrAdd(name: .acceptRanges, value: "bytes")
        response.headers.replaceOrAdd(name: .eTag, value: "\"\(stored.sha256)\"")
        if partial { response.headers.replaceOrAdd(name: .contentRange, value: "bytes \(first)-\(last)/\(size)") }
        let (client, logger, sha256) = (self.client, self.logger, stored.sha256)
        response.body = Response.Body(
            asyncStream: { writer in
                do {
                    let rows = try await client.query(
                        """
                        SELECT chunk, bytes FROM attachment_chunks
                        WHERE sha256 = \(sha256) AND chunk BETWEEN \(Int32(first / Self.chunkBytes)) AND \(Int32(last / Self.chunkBytes))
                        ORDER BY chunk
                        """, logger: logger)
                    for try await (chunk, bytes) in rows.decode((Int32, ByteBuffer).self) {
                        let start = Int(chunk) * Self.chunkBytes
                        let from = max(first - start, 0)
                        let to = min(last - start + 1, bytes.readableBytes)
                        guard from < to, let slice = bytes.getSlice(at: bytes.readerIndex + from, length: to - from)
                        else {
                            continue
                        }
                        try await writer.write(.buffer(slice))
                    }
                    try await writer.write(.end)
                } catch {
                    logger.warning(
                        "could not send attachment \(sha256) from the database: \(String(reflecting: error))")
                    try? await writer.write(.error(error))
                }
            }, count: last - first + 1)
        return response
    }

    func removeTemporaryFiles() {
        self.receiving.removeTemporaryFiles()
    }

    /// The bytes to send, `first...last`, and whether that is a part: the one range asked for when there is exactly
    /// one (satisfiable, as the controller checked), else the whole content.
    static func span(of range: HTTPHeaders.Range?, size: Int) -> (first: Int, last: Int, partial: Bool) {
        guard let range, range.unit == .bytes, range.ranges.count == 1, size > 0 else { return (0, size - 1, false) }
        switch range.ranges[0] {
        case .start(let start): return (start, size - 1, true)
        case .tail(let length): return (max(size - length, 0), size - 1, true)
        case .within(let start, let end): return (start, min(end, size - 1), true)
        }
    }

    private func read(_ descriptor: Int32, at offset: Int, count: Int) async throws -> ByteBuffer {
        try await self.threadPool.runIfActive {
            var buffer = ByteBufferAllocator().buffer(capacity: count)
            let read = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { pointer in
                pread(descriptor, pointer.baseAddress, count, off_t(offset))
            }
            guard read == count else { throw CocoaError(.fileReadUnknown) }
            return buffer
        }
    }
}
