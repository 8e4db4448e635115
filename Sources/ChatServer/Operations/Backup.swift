import ChatPersistence
import ChatProtocol
import Foundation
import Logging
import NIOPosix
import SQLKit
import SQLiteKit
import SQLiteNIO

/// `chat-server backup --to DIR [--data-dir DIR] [--attachments-dir DIR]`: a consistent copy of the database and of
/// the attachments it names, taken while the server runs (docs/OPERATIONS.md §7). SQLite's `VACUUM INTO` reads one
/// snapshot (WAL lets the server go on committing meanwhile) and writes it compacted as `DIR/chat.sqlite`; then every
/// attachment content that snapshot names is copied from the attachment store into `DIR/attachments/`, checked
/// against its SHA-256, and `DIR/manifest.json` records the counts and checksums that `restore` verifies. Every file
/// is created 0600 (the process's umask is 077 from its first line, ``ServerCommand``).
public enum Backup {
    /// Reads `--to DIR` and the server's `--data-dir` and `--attachments-dir` (or their environment variables,
    /// through the settings table), copies, and returns a report.
    public static func run(arguments: [String], environment: [String: String]) async throws -> String {
        let (configuration, own) = try ServerConfiguration.resolve(
            tool: "backup", arguments: arguments, environment: environment,
            settings: ["data-dir", "attachments-dir", "database-url"],
            required: ["to": "DIR (a new folder for the copy)"])
        // A node's env file names its database (read through --config): say what to do there instead of looking for
        // a SQLite file that was never made.
        guard configuration.databaseURL == nil else {
            throw ToolFailure(
                "backup: this server keeps its data in PostgreSQL (DATABASE_URL); back it up with pg_dump and copy the attachment store, as docs/OPERATIONS.md §7 shows"
            )
        }
        let destination = BackupFolder(path: own["to", default: ""])
        guard !FileManager.default.fileExists(atPath: destination.path) else {
            throw ToolFailure("backup: --to \(destination.path) already exists; choose a new folder")
        }
        guard FileManager.default.fileExists(atPath: configuration.databasePath) else {
            throw ToolFailure("backup: --data-dir \(configuration.dataDirectory) holds no chat.sqlite")
        }
        do {
            try FileManager.default.createDirectory(
                atPath: destination.attachments, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        } catch {
            throw ToolFailure("backup: cannot create \(destination.path): \(error)")
        }
        try await Self.copyDatabase(configuration.databasePath, to: destination.database)
        let snapshot = try await BackupFolder.contents(of: destination.database, tool: "backup")
        let store = AttachmentFiles(
            directory: configuration.attachmentsDirectory, node: "backup", threadPool: .singleton)
        var missing: [String] = []
        for file in snapshot.files {
            let source = store.path(for: file.sha256)
            guard FileManager.default.fileExists(atPath: source) else {
                missing.append(file.sha256)
                continue
            }
            let copied = try BackupFolder.copy(source, to: destination.attachment(file.sha256), tool: "backup")
            guard copied == file else {
                throw ToolFailure(
                    "backup: \(source) is not the content its name says (\(copied.size) bytes, SHA-256 \(copied.sha256)); the attachment store is damaged"
                )
            }
        }
        let manifest = BackupManifest(
            version: SwiftChatVersion.current, createdAt: Date(), counts: snapshot.counts,
            files: snapshot.files.filter { !missing.contains($0.sha256) }, missing: missing)
        try destination.write(manifest)
        let bytes = manifest.files.reduce(0) { $0 + $1.size }
        var report =
            "backed up \(configuration.databasePath) and \(manifest.files.count) attachment files (\(bytes) bytes) to \(destination.path): \(manifest.counts.description)"
        if !missing.isEmpty {
            report +=
                "\nwarning: \(missing.count) attachment contents the database names were not in \(configuration.attachmentsDirectory) (deleted since, or lost before): \(missing.joined(separator: ", "))"
        }
        return report
    }

    /// `VACUUM INTO`: one snapshot, compacted, into a new file.
    private static func copyDatabase(_ path: String, to destination: String) async throws {
        let connection = try await SQLiteConnection.open(
            storage: .file(path: path), threadPool: .singleton, logger: Logger(label: "backup"),
            on: MultiThreadedEventLoopGroup.singleton.any()
        ).get()
        do {
            let sql = connection.sql()
            // The server may hold the write lock for a moment: wait for it rather than fail.
            try await sql.raw("PRAGMA busy_timeout=10000").run()
            try await sql.raw("VACUUM INTO \(bind: destination)").run()
            try await connection.close().get()
        } catch {
            try? await connection.close().get()
            throw ToolFailure("backup: could not copy \(path) to \(destination): \(error)")
        }
    }
}
