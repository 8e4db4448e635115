import ChatCore
import Foundation
import NIOPosix
import Vapor

/// The bytes of attachments, one file per content under the attachments directory: `ab/abcdef…` for the SHA-256
/// `abcdef…`. An upload is received under `tmp/NODE/` and renamed into place once complete, so a crash or an error
/// never leaves a partial file under a content name; each node of a shared directory has a folder of its own there,
/// so that one starting does not delete what another is receiving. Files are readable by the server's user only
/// (0600).
struct AttachmentFiles: AttachmentBytes {
    let directory: String
    /// This node's folder under `tmp/`: its name, with anything but letters, digits, `.`, `-` and `_` replaced.
    let receivingFolder: String
    let threadPool: NIOThreadPool

    init(directory: String, node: String, threadPool: NIOThreadPool) {
        self.directory = directory
        let safe = node.unicodeScalars.map { scalar -> Character in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "._-".unicodeScalars.contains(scalar))
                ? Character(scalar) : "_"
        }
        self.receivingFolder = safe.isEmpty || safe.allSatisfy({ $0 == "." }) ? "node" : String(safe)
        self.threadPool = threadPool
    }

    /// Where this node receives uploads; emptied at start-up.
    var temporaryDirectory: String {
        URL(fileURLWithPath: self.directory).appendingPathComponent("tmp").appendingPathComponent(
            self.receivingFolder
        ).path
    }

    func path(for sha256: String) -> String {
        URL(fileURLWithPath: self.directory).appendingPathComponent(String(sha256.prefix(2))).appendingPathComponent(
            sha256
        ).path
    }

    /// Moves a received upload under its content name (or drops it when that content is already stored).
    func keep(_ upload: ReceivedUpload) async throws {
        let destination = self.path(for: upload.sha256)
        try await self.threadPool.runIfActive {
            let files = FileManager.default
            if files.fileExists(atPath: destination) {
                try? files.removeItem(atPath: upload.temporaryPath)
                return
            }
            try files.createDirectory(
                atPath: (destination as NSString).deletingLastPathComponent, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
            if rename(upload.temporaryPath, destination) != 0 { throw CocoaError(.fileWriteUnknown) }
        }
    }

    func response(for stored: StoredAttachment, mediaType: HTTPMediaType, request: Request) async throws -> Response {
        try await request.fileio.asyncStreamFile(at: self.path(for: stored.sha256), mediaType: mediaType)
    }

    /// Removes the files of contents no attachment refers to any more.
    func remove(_ sha256s: [String]) async throws {
        let paths = sha256s.map(self.path(for:))
        try await self.threadPool.runIfActive {
            for path in paths { try? FileManager.default.removeItem(atPath: path) }
        }
    }

    /// Deletes uploads that a crash or a shutdown of this node left half received.
    func removeTemporaryFiles() {
        try? FileManager.default.removeItem(atPath: self.temporaryDirectory)
    }
}
