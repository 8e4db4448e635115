import ChatUseCases
import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresNIO

/// `--attachments-store postgres`: attachment bytes in `attachment_chunks`, ``chunkBytes`` per row, so nodes need no
/// shared directory. Uploads are still received into a node-local temporary file; keeping one writes all its chunks
/// in one transaction, so a content is in the database whole or not at all. A read streams the chunks the range
/// needs, one row at a time.
public struct PostgresAttachmentContents: AttachmentContents {
    /// Small enough that a row is never a burden in memory, large enough that a 10 MiB file is 40 rows.
    public static let chunkBytes = 256 * 1024

    let client: PostgresClient
    /// Where the received file is read, off the event loops.
    let threadPool: NIOThreadPool
    let logger: Logger

    public init(client: PostgresClient, threadPool: NIOThreadPool, logger: Logger) {
        self.client = client
        self.threadPool = threadPool
        self.logger = logger
    }

    public func keep(fileAt path: String, size: Int, sha256: String) async throws {
        defer { try? FileManager.default.removeItem(atPath: path) }
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw CocoaError(.fileReadUnknown) }
        defer { close(descriptor) }
        try await self.client.withTransaction(logger: self.logger) { connection in
            let kept = try await connection.query(
                "SELECT 1 FROM attachment_chunks WHERE sha256 = \(sha256) AND chunk = 0", logger: self.logger)
            for try await _ in kept { return }
            var chunk: Int32 = 0
            var offset = 0
            while offset < size {
                let bytes = try await self.read(descriptor, at: offset, count: min(Self.chunkBytes, size - offset))
                try await connection.query(
                    """
                    INSERT INTO attachment_chunks (sha256, chunk, bytes) VALUES (\(sha256), \(chunk), \(bytes))
                    ON CONFLICT DO NOTHING
                    """, logger: self.logger)
                offset += bytes.readableBytes
                chunk += 1
            }
        }
    }

    public func remove(_ sha256s: [String]) async throws {
        guard !sha256s.isEmpty else { return }
        try await self.client.query("DELETE FROM attachment_chunks WHERE sha256 = ANY(\(sha256s))", logger: self.logger)
    }

    /// The chunks that hold `range`, cut to it, read one row at a time as they are sent. A failure ends the
    /// stream with its error (the response has begun; the client sees it cut short), and is logged.
    public func read(_ sha256: String, range: ClosedRange<Int>) async throws -> AttachmentBody {
        let rows = try await self.client.query(
            """
            SELECT chunk, bytes FROM attachment_chunks
            WHERE sha256 = \(sha256) AND chunk BETWEEN \(Int32(range.lowerBound / Self.chunkBytes)) AND \(Int32(range.upperBound / Self.chunkBytes))
            ORDER BY chunk
            """, logger: self.logger)
        let cursor = ChunkCursor(rows.decode((Int32, ByteBuffer).self).makeAsyncIterator(), range: range)
        let logger = self.logger
        return .bytes(
            AttachmentByteStream {
                do {
                    return try await cursor.next()
                } catch {
                    logger.warning(
                        "could not read attachment \(sha256) from the database: \(String(reflecting: error))")
                    throw error
                }
            })
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

/// The rows of one read, cut to its range. Only the task that sends the response pulls from it, one call at a time
/// (``AttachmentByteStream``), so its iterator is never used from two places at once.
private final class ChunkCursor: @unchecked Sendable {
    private var rows: AsyncThrowingMapSequence<PostgresRowSequence, (Int32, ByteBuffer)>.AsyncIterator
    private let range: ClosedRange<Int>

    init(
        _ rows: AsyncThrowingMapSequence<PostgresRowSequence, (Int32, ByteBuffer)>.AsyncIterator,
        range: ClosedRange<Int>
    ) {
        self.rows = rows
        self.range = range
    }

    func next() async throws -> ByteBuffer? {
        while let (chunk, bytes) = try await self.rows.next() {
            let start = Int(chunk) * PostgresAttachmentContents.chunkBytes
            let from = max(self.range.lowerBound - start, 0)
            let to = min(self.range.upperBound - start + 1, bytes.readableBytes)
            if from < to, let slice = bytes.getSlice(at: bytes.readerIndex + from, length: to - from) { return slice }
        }
        return nil
    }
}
