import ChatCore
import ChatPersistence
import Crypto
import Foundation
import NIOPosix
import SQLKit

/// For `migrate-to-postgres --attachments-store postgres`: copies the bytes of every attachment content a SQLite
/// installation refers to, from its files (``AttachmentFiles``' layout) into `attachment_chunks`, in the chunks
/// ``PostgresAttachmentContents`` serves. Each file is checked on the way: a content whose file is missing, has another
/// size or another SHA-256 than its rows say stops the copy, so the caller's transaction keeps nothing.
struct AttachmentFileReader {
    let directory: String

    /// Copies every content; returns how many there were.
    func copy(from sqlite: any SQLDatabase, into postgres: any SQLDatabase) async throws -> Int {
        let files = AttachmentFiles(directory: self.directory, node: "migrate-to-postgres", threadPool: .singleton)
        let contents = try await sqlite.raw("SELECT sha256, MAX(size) AS size FROM attachments GROUP BY sha256")
            .all().map {
                (try $0.decode(column: "sha256", as: String.self), try $0.decode(column: "size", as: Int.self))
            }
        for (sha256, size) in contents {
            try await self.copy(sha256, size: size, at: files.path(for: sha256), into: postgres)
        }
        return contents.count
    }

    private func copy(_ sha256: String, size: Int, at path: String, into postgres: any SQLDatabase) async throws {
        guard let file = FileHandle(forReadingAtPath: path) else {
            throw self.failure(sha256, "its file \(path) cannot be read")
        }
        defer { try? file.close() }
        var hasher = SHA256()
        var copied = 0
        var chunk: Int32 = 0
        while let bytes = try file.read(upToCount: PostgresAttachmentContents.chunkBytes), !bytes.isEmpty {
            hasher.update(data: bytes)
            try await postgres.raw(
                "INSERT INTO attachment_chunks (sha256, chunk, bytes) VALUES (\(bind: sha256), \(bind: chunk), \(bind: bytes))"
            ).run()
            copied += bytes.count
            chunk += 1
        }
        guard copied == size else {
            throw self.failure(sha256, "its file \(path) holds \(copied) bytes, its rows say \(size)")
        }
        let digest = hasher.finalize().hex
        guard digest == sha256 else {
            throw self.failure(sha256, "the SHA-256 of its file \(path) is \(digest)")
        }
    }

    private func failure(_ sha256: String, _ problem: String) -> ToolFailure {
        ToolFailure("migrate-to-postgres: attachment content \(sha256): \(problem); nothing was kept")
    }
}
