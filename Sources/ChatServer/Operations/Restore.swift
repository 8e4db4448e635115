import ChatPersistence
import Foundation
import NIOPosix

/// `chat-server restore --from DIR [--data-dir DIR] [--attachments-dir DIR]`: puts a backup (``Backup``) in place of
/// an empty data directory. Nothing is written until the whole backup is verified: the manifest, every attachment's
/// size and SHA-256, and the database's integrity and row counts. It holds the data directory's lock meanwhile, so it
/// refuses a directory a server is using, and no server can start on it halfway.
public enum Restore {
    public static func run(arguments: [String], environment: [String: String]) async throws -> String {
        let (configuration, own) = try ServerConfiguration.resolve(
            tool: "restore", arguments: arguments, environment: environment,
            settings: ["data-dir", "attachments-dir"], required: ["from": "DIR (a folder chat-server backup wrote)"])
        let backup = BackupFolder(path: own["from", default: ""])
        let manifest = try backup.readManifest(tool: "restore")
        try Self.verifyFiles(of: backup, manifest)
        let found = try await BackupFolder.contents(of: backup.database, tool: "restore")
        guard found.counts == manifest.counts else {
            throw ToolFailure(
                "restore: \(backup.database) holds \(found.counts.description), the manifest says \(manifest.counts.description); nothing was restored"
            )
        }

        let lock: DataDirectoryLock
        do {
            try FileManager.default.createDirectory(
                atPath: configuration.dataDirectory, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
            lock = try DataDirectoryLock(directory: configuration.dataDirectory)
        } catch let inUse as DataDirectoryInUse {
            throw ToolFailure("restore: \(inUse.description); stop the server first")
        } catch {
            throw ToolFailure("restore: cannot use --data-dir \(configuration.dataDirectory): \(error)")
        }
        defer { lock.release() }
        try Self.requireEmpty(configuration)

        _ = try BackupFolder.copy(backup.database, to: configuration.databasePath, tool: "restore")
        let store = AttachmentFiles(
            directory: configuration.attachmentsDirectory, node: "restore", threadPool: .singleton)
        for file in manifest.files {
            _ = try BackupFolder.copy(backup.attachment(file.sha256), to: store.path(for: file.sha256), tool: "restore")
        }
        var report =
            "restored \(backup.path) (made by \(manifest.version) at \(manifest.createdAt)) into \(configuration.dataDirectory): \(manifest.counts.description), \(manifest.files.count) attachment files"
        if !manifest.missing.isEmpty {
            report += "\nwarning: the backup lacked \(manifest.missing.count) attachment contents its database names"
        }
        return report
    }

    /// Every file the manifest lists is there, with its size and SHA-256.
    private static func verifyFiles(of backup: BackupFolder, _ manifest: BackupManifest) throws {
        for file in manifest.files {
            let path = backup.attachment(file.sha256)
            guard FileManager.default.fileExists(atPath: path) else {
                throw ToolFailure("restore: \(path) is missing; nothing was restored")
            }
            let found = try BackupFolder.digest(of: path, tool: "restore")
            guard found == file else {
                throw ToolFailure(
                    "restore: \(path) has \(found.size) bytes and SHA-256 \(found.sha256), the manifest says \(file.size) and \(file.sha256); nothing was restored"
                )
            }
        }
    }

    /// A restore never mixes with what is there: no database and no attachment in the target.
    private static func requireEmpty(_ configuration: ServerConfiguration) throws {
        for suffix in ["", "-wal", "-shm"]
        where FileManager.default.fileExists(atPath: configuration.databasePath + suffix) {
            throw ToolFailure(
                "restore: --data-dir \(configuration.dataDirectory) already holds \(configuration.databasePath + suffix); restore into an empty directory"
            )
        }
        let stored = (try? FileManager.default.contentsOfDirectory(atPath: configuration.attachmentsDirectory)) ?? []
        guard stored.allSatisfy({ $0 == "tmp" }) else {
            throw ToolFailure(
                "restore: --attachments-dir \(configuration.attachmentsDirectory) is not empty; restore into an empty directory"
            )
        }
    }
}
