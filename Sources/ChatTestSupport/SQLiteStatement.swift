import Foundation
import Logging
import NIOPosix
import SQLiteNIO

/// One statement on a server's SQLite file from a connection of the test's own, as a manual change would be made.
public enum SQLiteStatement {
    /// Runs `sql` on `chat.sqlite` in `dataDirectory`, waiting up to 5 s for the server's write lock. The connection
    /// waits on a thread of its own: asleep in SQLite's busy timeout, it must not hold a thread of the process-wide
    /// pool that other tests' servers read their files on.
    public static func run(_ sql: String, inDataDirectory dataDirectory: String) async throws {
        let path = URL(fileURLWithPath: dataDirectory).appendingPathComponent("chat.sqlite").path
        let thread = NIOThreadPool(numberOfThreads: 1)
        thread.start()
        defer { thread.shutdownGracefully { _ in } }
        let connection = try await SQLiteConnection.open(
            storage: .file(path: path), threadPool: thread, logger: Logger(label: "test-statement"),
            on: MultiThreadedEventLoopGroup.singleton.any()
        ).get()
        do {
            _ = try await connection.query("PRAGMA busy_timeout = 5000").get()
            _ = try await connection.query(sql).get()
        } catch {
            try? await connection.close().get()
            throw error
        }
        try await connection.close().get()
    }
}
