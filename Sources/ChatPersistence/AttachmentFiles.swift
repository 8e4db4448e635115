import ChatUseCases
import Foundation
import NIOPosix

/// The bytes of attachments, one file per content under the attachments directory: `ab/abcdef…` for the SHA-256
/// `abcdef…`. An upload is received under `tmp/NODE/` and renamed into place once complete, so a crash or an error
/// never leaves a partial file under a content name; each node of a shared directory has a folder of its own there,
/// so that one starting does not delete what another is receiving. Files are readable by the server's user only
/// (0600).
public struct AttachmentFiles: AttachmentContents {
    let directory: String
    /// This node's folder under `tmp/`: its name, with anything but letters, digits, `.`, `-` and `_` replaced.
    let receivingFolder: String
    /// Where file work runs, off the event loops.
    public let threadPool: NIOThreadPool

    public init(directory: String, node: String, threadPool: NIOThreadPool) {
        self.directory = directory
        let safe = node.unicodeScalars.map { scalar -> Character in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "._-".unicodeScalars.contains(scalar))
                ? Character(scalar) : "_"
        }
        self.receivingFolder = safe.isEmpty || safe.allSatisfy({ $0 == "." }) ? "node" : String(safe)
        self.threadPool = threadPool
    }

    /// Where this node receives uploads; emptied at start-up.
    public var temporaryDirectory: String {
        URL(fileURLWithPath: self.directory).appendingPathComponent("tmp").appendingPathComponent(
            self.receivingFolder
        ).path
    }

    public func path(for sha256: String) -> String {
        URL(fileURLWithPath: self.directory).appendingPathComponent(String(sha256.prefix(2))).appendingPathComponent(
            sha256
        ).path
    }

    /// Moves a received upload under its content name (or drops it when that content is already stored).
    public func keep(fileAt path: String, size: Int, sha256: String) async throws {
        let destination = self.path(for: sha256)
        do {
            try await self.threadPool.runIfActive {
                let files = FileManager.default
                if files.fileExists(atPath: destination) {
                    try? files.removeItem(atPath: path)
                    return
                }
                try files.createDirectory(
                    atPath: (destination as NSString).deletingLastPathComponent, withIntermediateDirectories: true,
                    attributes: [.posixPermissions: 0o700])
                if rename(path, destination) != 0 { throw CocoaError(.fileWriteUnknown) }
            }
        } catch {
            // The port's promise: the upload's file is gone whatever happened.
            try? FileManager.default.removeItem(atPath: path)
            throw error
        }
    }

    /// The content's file, whatever the range: the transport serves the range from it.
    public func read(_ sha256: String, range: ClosedRange<Int>) async throws -> AttachmentBody {
        .file(path: self.path(for: sha256))
    }

    /// Removes the files of contents no attachment refers to any more.
    public func remove(_ sha256s: [String]) async throws {
        let paths = sha256s.map(self.path(for:))
        try await self.threadPool.runIfActive {
            for path in paths { try? FileManager.default.removeItem(atPath: path) }
        }
    }

    /// Deletes uploads that a crash or a shutdown of this node left half received.
    public func removeTemporaryFiles() {
        try? FileManager.default.removeItem(atPath: self.temporaryDirectory)
    }
}
