import Logging
import NIOCore
import NIOPosix
import SQLKit
import SQLiteKit
import SQLiteNIO

/// The one connection every message write goes through.
///
/// The store writes on a connection of its own rather than through Fluent's pool: Fluent's SQLite driver runs
/// `withConnection` through a Swift task, which costs two extra thread hops per batch, and a single writer never
/// waits for SQLite's write lock. Reads (history when a room opens) still use Fluent.
///
/// Its settings are made once, when it opens:
/// - WAL lets readers run while a batch is written, and makes a commit one append to the log.
/// - `synchronous=NORMAL` in WAL mode keeps every committed transaction across a crash of the process (SIGKILL
///   included); only a power loss can lose the last few commits. NORMAL is what SQLite recommends for WAL, and the
///   room already batches messages so that one commit serves many.
public final class SQLiteWriteConnection: Sendable {
    private let connection: SQLiteConnection
    /// The connection as SQLKit sees it (with the same encoder Fluent uses, so Fluent reads back what it wrote),
    /// behind the queue that keeps one write's statements together.
    public let writer: SerialSQLWriter

    private init(connection: SQLiteConnection) {
        self.connection = connection
        self.writer = SerialSQLWriter(connection.sql())
    }

    /// Opens the database file on `eventLoop` (write results are delivered there) and applies the settings.
    public static func open(path: String, threadPool: NIOThreadPool, on eventLoop: any EventLoop, logger: Logger) async throws -> SQLiteWriteConnection {
        let connection = try await SQLiteConnection.open(storage: .file(path: path), threadPool: threadPool, logger: logger, on: eventLoop).get()
        let writer = SQLiteWriteConnection(connection: connection)
        do {
            try await writer.writer.sql.raw("PRAGMA journal_mode=WAL").run()
            try await writer.writer.sql.raw("PRAGMA synchronous=NORMAL").run()
            try await writer.writer.sql.raw("PRAGMA secure_delete=ON").run()
        } catch {
            try? await connection.close()
            throw error
        }
        return writer
    }

    public func close() async {
        try? await self.connection.close()
    }
}
