import ChatPersistence
import Foundation
import Logging
import NIOPosix
import SQLKit
import SQLiteKit
import SQLiteNIO

/// `chat-server backup --to FILE [--data-dir DIR]`: a consistent copy of the database, taken while the server
/// runs. SQLite's `VACUUM INTO` reads one snapshot (WAL lets the server go on committing meanwhile) and writes it
/// compacted into a new file, readable by this user only. Attachments are files: copy `attachments/` beside it
/// (docs/OPERATIONS.md).
public enum Backup {
    /// Reads `--to FILE` and the server's `--data-dir` (or `CHAT_DATA_DIR`, through the settings table), copies, and
    /// returns a one-line report.
    public static func run(arguments: [String], environment: [String: String]) async throws -> String {
        let (configuration, own) = try ServerConfiguration.resolve(
            tool: "backup", arguments: arguments, environment: environment, settings: ["data-dir"],
            required: ["to": "FILE (the new copy)"])
        let destination = own["to", default: ""]
        guard !FileManager.default.fileExists(atPath: destination) else {
            throw ToolFailure("backup: --to \(destination) already exists; choose a new file")
        }
        guard FileManager.default.fileExists(atPath: configuration.databasePath) else {
            throw ToolFailure("backup: --data-dir \(configuration.dataDirectory) holds no chat.sqlite")
        }
        let connection = try await SQLiteConnection.open(
            storage: .file(path: configuration.databasePath), threadPool: .singleton, logger: Logger(label: "backup"),
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
            throw ToolFailure("backup: could not copy \(configuration.databasePath) to \(destination): \(error)")
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: destination)
        let size = (try? FileManager.default.attributesOfItem(atPath: destination)[.size] as? Int) ?? 0
        return
            "backed up \(configuration.databasePath) to \(destination) (\(size) bytes); copy \(configuration.attachmentsDirectory) too"
    }
}
