import ChatCore
import Crypto
import Foundation
import Logging
import NIOPosix
import SQLKit
import SQLiteKit
import SQLiteNIO

/// What `backup` writes and `restore` reads: `chat.sqlite`, `attachments/XX/SHA256` (the attachment store's own
/// layout) and `manifest.json`.
struct BackupFolder {
    let path: String

    var database: String { self.path + "/chat.sqlite" }
    var attachments: String { self.path + "/attachments" }
    var manifest: String { self.path + "/manifest.json" }

    func attachment(_ sha256: String) -> String {
        "\(self.attachments)/\(sha256.prefix(2))/\(sha256)"
    }

    func write(_ manifest: BackupManifest) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        guard
            FileManager.default.createFile(
                atPath: self.manifest, contents: try encoder.encode(manifest), attributes: [.posixPermissions: 0o600])
        else { throw ToolFailure("backup: cannot write \(self.manifest)") }
    }

    func readManifest(tool: String) throws -> BackupManifest {
        guard let data = FileManager.default.contents(atPath: self.manifest) else {
            throw ToolFailure("\(tool): \(self.path) holds no manifest.json: not a backup made by chat-server backup")
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        do {
            return try decoder.decode(BackupManifest.self, from: data)
        } catch {
            throw ToolFailure("\(tool): \(self.manifest) does not parse: \(error)")
        }
    }

    /// The counts of a database file and the attachment contents it names.
    static func contents(of database: String, tool: String) async throws -> (
        counts: BackupManifest.Counts, files: [BackupManifest.File]
    ) {
        let connection = try await SQLiteConnection.open(
            storage: .file(path: database), threadPool: .singleton, logger: Logger(label: tool),
            on: MultiThreadedEventLoopGroup.singleton.any()
        ).get()
        do {
            let sql = connection.sql()
            let check = try await sql.raw("PRAGMA integrity_check").first(
                decodingColumn: "integrity_check", as: String.self)
            guard check == "ok" else { throw ToolFailure("\(tool): \(database) is damaged: \(check ?? "no answer")") }
            var counts = BackupManifest.Counts()
            for table in BackupManifest.Counts.tables {
                let count = try await sql.raw("SELECT COUNT(*) AS n FROM \(ident: table)").first(
                    decodingColumn: "n", as: Int.self)
                counts.rows[table] = count ?? 0
            }
            let files = try await sql.raw(
                "SELECT sha256, MAX(size) AS size FROM attachments GROUP BY sha256 ORDER BY sha256"
            )
            .all().map {
                BackupManifest.File(
                    sha256: try $0.decode(column: "sha256", as: String.self),
                    size: try $0.decode(column: "size", as: Int.self))
            }
            try await connection.close().get()
            return (counts, files)
        } catch {
            try? await connection.close().get()
            if let failure = error as? ToolFailure { throw failure }
            throw ToolFailure("\(tool): cannot read \(database): \(error)")
        }
    }

    /// Copies `source` to `destination` (created 0600, its folder 0700), hashing as it goes: the copy's size and
    /// SHA-256.
    static func copy(_ source: String, to destination: String, tool: String) throws -> BackupManifest.File {
        let folder = URL(fileURLWithPath: destination).deletingLastPathComponent().path
        do {
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            guard let input = FileHandle(forReadingAtPath: source),
                FileManager.default.createFile(
                    atPath: destination, contents: nil, attributes: [.posixPermissions: 0o600]),
                let output = FileHandle(forWritingAtPath: destination)
            else { throw ToolFailure("\(tool): cannot copy \(source) to \(destination)") }
            defer {
                try? input.close()
                try? output.close()
            }
            let file = try Self.read(input) { try output.write(contentsOf: $0) }
            try output.synchronize()
            return file
        } catch let failure as ToolFailure {
            throw failure
        } catch {
            throw ToolFailure("\(tool): cannot copy \(source) to \(destination): \(error)")
        }
    }

    /// The size and SHA-256 of the file at `path`, read without writing anything.
    static func digest(of path: String, tool: String) throws -> BackupManifest.File {
        guard let input = FileHandle(forReadingAtPath: path) else { throw ToolFailure("\(tool): cannot read \(path)") }
        defer { try? input.close() }
        do {
            return try Self.read(input) { _ in }
        } catch {
            throw ToolFailure("\(tool): cannot read \(path): \(error)")
        }
    }

    /// Reads `input` to its end a megabyte at a time, handing each chunk to `use`: its size and SHA-256.
    private static func read(_ input: FileHandle, _ use: (Data) throws -> Void) throws -> BackupManifest.File {
        var hasher = SHA256()
        var size = 0
        while let chunk = try input.read(upToCount: 1 << 20), !chunk.isEmpty {
            hasher.update(data: chunk)
            try use(chunk)
            size += chunk.count
        }
        return BackupManifest.File(sha256: hasher.finalize().hex, size: size)
    }
}

/// `manifest.json` of a backup: what `restore` checks before it writes anything.
struct BackupManifest: Codable, Equatable {
    /// The rows of the tables a restore must find again.
    struct Counts: Codable, Equatable, CustomStringConvertible {
        static let tables = ["users", "rooms", "memberships", "messages", "attachments"]
        var rows: [String: Int] = [:]

        var description: String {
            Self.tables.map { "\(self.rows[$0] ?? 0) \($0)" }.joined(separator: ", ")
        }
    }

    /// One attachment content.
    struct File: Codable, Equatable {
        let sha256: String
        let size: Int
    }

    let version: String
    let createdAt: Date
    let counts: Counts
    let files: [File]
    /// Contents the database named that were not in the store when the backup ran.
    let missing: [String]
}
