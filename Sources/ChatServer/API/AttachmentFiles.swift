import Crypto
import Foundation
import NIOCore
import NIOPosix

/// The bytes of attachments, one file per content under the data directory: `attachments/ab/abcdef…` for the
/// SHA-256 `abcdef…`. A file is written under a temporary name and renamed into place, so a crash or an error
/// never leaves a partial file under a content name.
struct AttachmentFiles: Sendable {
    let directory: String
    let threadPool: NIOThreadPool

    func path(for sha256: String) -> String {
        URL(fileURLWithPath: self.directory).appendingPathComponent(String(sha256.prefix(2))).appendingPathComponent(sha256).path
    }

    /// Stores the bytes (once per content) and returns their SHA-256 in lowercase hex.
    func store(_ bytes: ByteBuffer) async throws -> String {
        let data = Data(bytes.readableBytesView)
        let sha256 = SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
        let destination = self.path(for: sha256)
        try await self.threadPool.runIfActive {
            let files = FileManager.default
            guard !files.fileExists(atPath: destination) else { return }
            try files.createDirectory(atPath: (destination as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            let temporary = destination + ".uploading-" + UUID().uuidString
            do {
                try data.write(to: URL(fileURLWithPath: temporary))
                if rename(temporary, destination) != 0 { throw CocoaError(.fileWriteUnknown) }
            } catch {
                try? files.removeItem(atPath: temporary)
                throw error
            }
        }
        return sha256
    }
}
