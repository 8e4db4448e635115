import ChatPersistence
import Fluent
import Foundation
import Logging
import NIOPosix
import SQLKit
import SQLiteKit
import SQLiteNIO
import Vapor

/// `chat-server migrate-to-postgres --from data/chat.sqlite --database-url URL`: copies a SQLite installation into an
/// empty PostgreSQL database (docs/DEPLOYMENT.md), so its community can move to several nodes.
///
/// The target is migrated as a node would migrate it, then every table the chat keeps (accounts and tokens, rooms
/// and memberships with their read positions, messages and events with their `seq`s, reactions, attachments'
/// metadata) is copied in one transaction, column by column as both schemas name them, each value read as the type
/// PostgreSQL declares. Each room's counter is set to its last `seq`; search needs nothing (PostgreSQL derives it
/// from the text). Before committing, the row count of every table, and every room's last `seq`, are compared: any
/// difference rolls everything back. The server must be stopped: the data directory's lock is taken for the copy.
///
/// With `--attachments-store postgres` the attachments' bytes are copied too, from their files into
/// `attachment_chunks` in the same transaction, each content checked against its SHA-256 and size; without, the
/// files stay where they are and the report says where to copy them.
public enum PostgresMigration {
    /// Parents before children, as the foreign keys need them.
    static let tables = [
        "users", "tokens", "rooms", "memberships", "messages", "reactions", "attachments", "attachment_rooms",
        "incoming_webhooks", "contacts",
    ]
    /// Reads `--from FILE` and the server's `--database-url`, `--attachments-store` and `--attachments-dir` (or their
    /// environment variables, through the settings table), copies, verifies, and returns a report of what was
    /// copied.
    public static func run(arguments: [String], environment: [String: String]) async throws -> String {
        let (configuration, own) = try ServerConfiguration.resolve(
            tool: "migrate-to-postgres", arguments: arguments, environment: environment,
            settings: ["database-url", "attachments-store", "attachments-dir"], needed: ["database-url": "URL"],
            required: ["from": "FILE (the chat.sqlite to copy)"])
        let source = own["from", default: ""]
        guard let target = configuration.databaseURL else {
            throw ToolFailure("migrate-to-postgres: --database-url URL (or DATABASE_URL) is required")
        }
        let store = configuration.attachmentsStore
        let attachments = configuration.attachmentsPath
        guard FileManager.default.fileExists(atPath: source) else {
            throw ToolFailure("migrate-to-postgres: --from \(source): no such file")
        }
        let directory = URL(fileURLWithPath: source).deletingLastPathComponent().path
        let attachmentsDirectory = URL(
            fileURLWithPath: attachments.isEmpty ? directory + "/attachments" : attachments
        ).standardizedFileURL.path
        let files = store == "postgres" ? AttachmentFileReader(directory: attachmentsDirectory) : nil
        let lock: DataDirectoryLock
        do {
            lock = try DataDirectoryLock(directory: directory)
        } catch {
            throw ToolFailure("migrate-to-postgres: --from \(source): \(error); stop the server first")
        }
        defer { lock.release() }
        let counts = try await Self.copy(from: source, to: target, attachmentFiles: files)
        let summary = counts.map { "\($0.count) \($0.table)" }.joined(separator: ", ")
        let attachmentsNote =
            files == nil
            ? "Attachments are files: copy \(attachmentsDirectory) to the nodes' --attachments-dir"
            : "The attachments' bytes are in the database: start the nodes with --attachments-store postgres"
        return "copied \(source) into \(target.description): \(summary); every count verified. \(attachmentsNote)"
    }

    /// Opens both databases, migrates the target, copies in one transaction; the row counts copied.
    private static func copy(
        from source: String, to target: DatabaseURL, attachmentFiles: AttachmentFileReader?
    ) async throws -> [(table: String, count: Int)] {
        let logger = Logger(label: "migrate-to-postgres")
        let sqlite = try await SQLiteConnection.open(
            storage: .file(path: source), threadPool: .singleton, logger: logger,
            on: MultiThreadedEventLoopGroup.singleton.any()
        ).get()
        let application = try await Application.make(
            Environment(name: "production", arguments: ["chat-server"]), .shared(MultiThreadedEventLoopGroup.singleton))
        application.logger.logLevel = .warning
        var storage: PostgresStorage?
        do {
            // Nothing is sent through it: the send limit is the default's.
            let defaults = ServerConfiguration()
            let opened = try await PostgresStorage.open(
                application, url: target, sendLimit: SendLimitRule(burst: defaults.sendBurst, rate: defaults.sendRate),
                metrics: nil, logger: application.logger)
            storage = opened
            let counts = try await Self.copy(
                from: sqlite.sql(), into: application.db, attachmentFiles: attachmentFiles)
            await opened.close()
            try await application.asyncShutdown()
            try await sqlite.close().get()
            return counts
        } catch {
            await storage?.close()
            try? await application.asyncShutdown()
            try? await sqlite.close().get()
            if let failure = error as? ToolFailure { throw failure }
            throw ToolFailure("migrate-to-postgres: nothing was copied: \(error)")
        }
    }

    private static func copy(
        from sqlite: any SQLDatabase, into database: any Database, attachmentFiles: AttachmentFileReader?
    ) async throws -> [(table: String, count: Int)] {
        try await database.transaction { transaction in
            guard let postgres = transaction as? any SQLDatabase else { throw ChatServiceError.searchNeedsSQL }
            // Any row at all (a room or a membership left by a server that ran on it, a lobby counter) is another
            // chat's, and a copy would mix the two.
            for table in Self.tables + ["room_sequences"] where try await Self.count(table, in: postgres) > 0 {
                throw ToolFailure(
                    "migrate-to-postgres: --database-url: the database already holds a chat (its \(table) table is not empty); migrate into an empty database"
                )
            }
            // The rows carry their read positions already: a sender's message must not move them again.
            try await postgres.raw("ALTER TABLE messages DISABLE TRIGGER \(unsafeRaw: AddReadOnSend.trigger)").run()
            var counts: [(table: String, count: Int)] = []
            for table in Self.tables {
                let copied = try await Self.copy(table, from: sqlite, into: postgres)
                let expected = try await Self.count(table, in: sqlite)
                guard copied == expected, try await Self.count(table, in: postgres) == expected else {
                    throw ToolFailure(
                        "migrate-to-postgres: \(table): \(expected) rows to copy, \(copied) copied; nothing was kept"
                    )
                }
                counts.append((table, copied))
            }
            try await postgres.raw("ALTER TABLE messages ENABLE TRIGGER \(unsafeRaw: AddReadOnSend.trigger)").run()
            // SQLite's index is its own table: the search column is made here from the same tokens.
            try await PostgresMessageSearch.fillMissingVectors(on: postgres, logger: database.logger)
            try await postgres.raw(
                "INSERT INTO room_sequences (room, last_seq) SELECT room, MAX(seq) FROM messages GROUP BY room"
            ).run()
            let lastSeqs = "SELECT room, MAX(seq) AS last FROM messages GROUP BY room ORDER BY room"
            let before = try await sqlite.raw(SQLQueryString(lastSeqs)).all().map(Self.roomAndLast)
            let after = try await postgres.raw("SELECT room, last_seq AS last FROM room_sequences ORDER BY room")
                .all().map(Self.roomAndLast)
            guard before.count == after.count, zip(before, after).allSatisfy({ $0 == $1 }) else {
                throw ToolFailure("migrate-to-postgres: the rooms' last seq differ after the copy; nothing was kept")
            }
            if let attachmentFiles {
                counts.append(("attachment contents", try await attachmentFiles.copy(from: sqlite, into: postgres)))
            }
            return counts
        }
    }

    private static func roomAndLast(_ row: any SQLRow) throws -> String {
        "\(try row.decode(column: "room", as: String.self)):\(try row.decode(column: "last", as: Int64.self))"
    }

    /// Copies one table in pages of rows, each page one multi-row `INSERT`; returns the rows copied.
    private static func copy(_ table: String, from sqlite: any SQLDatabase, into postgres: any SQLDatabase) async throws
        -> Int
    {
        let present = try await sqlite.raw("PRAGMA table_info(\(ident: table))").all()
            .map { try $0.decode(column: "name", as: String.self) }
        let targetColumns = try await postgres.raw(
            """
            SELECT column_name, data_type FROM information_schema.columns
            WHERE table_schema = current_schema() AND table_name = \(bind: table) AND is_generated = 'NEVER'
            ORDER BY ordinal_position
            """
        ).all().map {
            (try $0.decode(column: "column_name", as: String.self), try $0.decode(column: "data_type", as: String.self))
        }
        let columns = targetColumns.filter { present.contains($0.0) }
        guard !columns.isEmpty else { return 0 }
        // PostgreSQL takes at most 65,535 parameters per statement.
        let pageSize = max(1, 30_000 / columns.count)
        var lastRowID: Int64 = 0
        var copied = 0
        while true {
            let rows = try await sqlite.select()
                .column(SQLIdentifier("rowid"), as: "swiftchat_rowid")
                .columns(columns.map { SQLIdentifier($0.0) })
                .from(table)
                .where(SQLIdentifier("rowid"), .greaterThan, lastRowID)
                .orderBy(SQLIdentifier("rowid"))
                .limit(pageSize)
                .all()
            guard let last = rows.last else { break }
            lastRowID = try last.decode(column: "swiftchat_rowid", as: Int64.self)
            let insert = postgres.insert(into: table).columns(columns.map(\.0))
            for row in rows {
                insert.values(try columns.map { try Self.value(of: $0.0, typed: $0.1, in: row) })
            }
            try await insert.run()
            copied += rows.count
        }
        return copied
    }

    /// A column's value, read as the Swift type of what PostgreSQL declares for it.
    private static func value(of column: String, typed type: String, in row: any SQLRow) throws -> any SQLExpression {
        switch type {
        case "uuid": SQLBind(try row.decode(column: column, as: UUID?.self))
        case "timestamp with time zone", "timestamp without time zone", "date":
            SQLBind(try row.decode(column: column, as: Date?.self))
        case "bigint", "integer", "smallint": SQLBind(try row.decode(column: column, as: Int64?.self))
        case "boolean": SQLBind(try row.decode(column: column, as: Bool?.self))
        case "double precision", "real", "numeric": SQLBind(try row.decode(column: column, as: Double?.self))
        case "bytea": SQLBind(try row.decode(column: column, as: Data?.self))
        default: SQLBind(try row.decode(column: column, as: String?.self))
        }
    }

    private static func count(_ table: String, in database: any SQLDatabase) async throws -> Int {
        try await database.raw("SELECT COUNT(*) AS n FROM \(ident: table)").first(decodingColumn: "n", as: Int.self)
            ?? 0
    }
}
