import ChatPersistence
import ChatTestSupport
import Foundation
import Logging
import NIOCore
import NIOPosix
import SQLKit
import SQLiteKit
import SQLiteNIO
import Testing

/// Commits never checkpoint; the checkpointer does, off the commit path (docs/BENCHMARKS.md, PROTOCOL.md §8.3).
@Suite("The write-ahead log is checkpointed off the commit path")
struct CheckpointTests {
    private static func temporaryDatabase() -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "swiftchat-wal-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent("chat.sqlite").path
    }

    /// Rows of `t` in a copy of the database file alone, without its log: what a checkpoint has moved there.
    private static func rowsInDatabaseFile(_ path: String) async throws -> Int {
        let copy = path + ".copy"
        try? FileManager.default.removeItem(atPath: copy)
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        let connection = try await SQLiteConnection.open(
            storage: .file(path: copy), threadPool: .singleton, on: MultiThreadedEventLoopGroup.singleton.any()
        ).get()
        // Until the table's creation is checkpointed, the file alone does not even have the table.
        let row = try? await connection.sql().raw("SELECT COUNT(*) AS n FROM t").first()
        try await connection.close().get()
        return (try? row?.decode(column: "n", as: Int.self)) ?? 0
    }

    @Test("the write connection never checkpoints, and the checkpointer moves commits into the database file")
    func checkpointerMovesCommits() async throws {
        let path = Self.temporaryDatabase()
        let logger = Logger(label: "checkpoint-test")
        let eventLoop = MultiThreadedEventLoopGroup.singleton.any()
        let writer = try await SQLiteWriteConnection.open(
            path: path, durability: .process, threadPool: .singleton, on: eventLoop, logger: logger,
            checkpointing: false)
        try await writer.writer.write([SQLRaw("CREATE TABLE t (x INTEGER)")]).get()
        #expect(try await writer.setting("wal_autocheckpoint") == 0)
        for index in 0..<200 {
            try await writer.writer.write([SQLRaw("INSERT INTO t VALUES (\(index))")]).get()
        }
        // Without a checkpointer the commits stay in the log only.
        #expect(try await Self.rowsInDatabaseFile(path) == 0)

        let pool = NIOThreadPool(numberOfThreads: 1)
        pool.start()
        let checkpointer = try await WALCheckpointer.start(path: path, threadPool: pool, on: eventLoop, logger: logger)
        try? await eventually("the checkpoint moved every row", within: .seconds(10)) {
            try await Self.rowsInDatabaseFile(path) >= 200
        }
        #expect(try await Self.rowsInDatabaseFile(path) == 200)
        await checkpointer.close()
        await writer.close()
        try await pool.shutdownGracefully()
    }

    @Test("under steady writes the log starts over instead of growing: it stays near its limit")
    func logStaysBounded() async throws {
        let path = Self.temporaryDatabase()
        let logger = Logger(label: "checkpoint-test")
        let eventLoop = MultiThreadedEventLoopGroup.singleton.any()
        // Threads of their own, so that other suites' SQLite work running beside this one cannot starve it.
        let writerThread = NIOThreadPool(numberOfThreads: 1)
        let checkpointThread = NIOThreadPool(numberOfThreads: 1)
        writerThread.start()
        checkpointThread.start()
        let writer = try await SQLiteWriteConnection.open(
            path: path, durability: .process, threadPool: writerThread, on: eventLoop, logger: logger,
            checkpointing: false)
        try await writer.writer.write([SQLRaw("CREATE TABLE t (x INTEGER, pad BLOB)")]).get()
        // Started over past 1,000 pages (4 MiB) and truncated to 4 MiB here, so the test need not write 64 MiB.
        try await writer.writer.write([SQLRaw("PRAGMA journal_size_limit=4194304")]).get()
        let checkpointer = try await WALCheckpointer.start(
            path: path, threadPool: checkpointThread, on: eventLoop, restartFrames: 1000, logger: logger)
        // At least one 4 KiB page per commit: 8,000 commits put 32 MiB through the log, in bursts of 10 so that the
        // checkpointer gets its turns as it would between messages.
        for commit in stride(from: 0, to: 8_000, by: 10) {
            for index in commit..<commit + 10 {
                try await writer.writer.write([SQLRaw("INSERT INTO t VALUES (\(index), randomblob(3000))")]).get()
            }
            try await Task.sleep(for: .milliseconds(5))
        }
        let logBytes = (try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
        #expect(logBytes <= 16 * 1024 * 1024, "the log grew to \(logBytes) bytes")
        await checkpointer.close()
        await writer.close()
        try await writerThread.shutdownGracefully()
        try await checkpointThread.shutdownGracefully()
    }

    @Test("--durability power syncs the log at every commit: synchronous=FULL on the write connection")
    func powerDurability() async throws {
        let eventLoop = MultiThreadedEventLoopGroup.singleton.any()
        for (durability, mode) in [(Durability.process, 1), (.power, 2)] {
            let writer = try await SQLiteWriteConnection.open(
                path: Self.temporaryDatabase(), durability: durability, threadPool: .singleton, on: eventLoop,
                logger: Logger(label: "test"))
            #expect(try await writer.setting("synchronous") == mode)
            await writer.close()
        }
    }
}
