import Foundation
import Logging
import NIOCore
import NIOPosix
import SQLKit
import Testing

@testable import ChatPersistence

@Suite("The writer's own SQLite handle: one transaction per write, statements kept prepared")
struct SQLiteCommitHandleTests {
    @Test("a write of several statements is all or nothing; more distinct statements than the cache keeps all run")
    func transactionsAndCache() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("commit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let connection = try await SQLiteWriteConnection.open(
            path: directory.appendingPathComponent("chat.sqlite").path, durability: .process, threadPool: .singleton,
            on: MultiThreadedEventLoopGroup.singleton.any(), logger: Logger(label: "commit-test"),
            checkpointing: false)
        let writer = connection.writer
        try await writer.write([SQLRaw("CREATE TABLE t (x INTEGER PRIMARY KEY, label TEXT)")]).get()
        // act: 150 statements of distinct texts (past the cache's 64), then the same texts again, with binds
        for round in 0..<2 {
            for x in 0..<150 {
                try await writer.write([
                    SQLQueryString(
                        "INSERT OR REPLACE INTO t (x, label) VALUES (\(bind: x), \(bind: "round \(round)")) -- \(unsafeRaw: String(x))"
                    )
                ]).get()
            }
        }
        // and a write whose second statement fails: its first must not stay
        await #expect(throws: (any Error).self) {
            try await writer.write([
                SQLRaw("INSERT INTO t (x, label) VALUES (1000, 'kept?')"),
                SQLRaw("INSERT INTO t (x, label) VALUES (0, 'a duplicate key')"),
            ]).get()
        }
        // validate
        let rows = try await writer.sql.raw("SELECT label FROM t ORDER BY x").all().map {
            try $0.decode(column: "label", as: String.self)
        }
        #expect(rows == Array(repeating: "round 1", count: 150))
        // the writer goes on after the failure
        try await writer.write([SQLRaw("INSERT INTO t (x, label) VALUES (1000, 'after')")]).get()
        #expect(
            try await writer.sql.raw("SELECT COUNT(*) AS n FROM t").first()?.decode(column: "n", as: Int.self) == 151)
        await connection.close()
    }

    @Test("a transaction an earlier write left open (its ROLLBACK failed) is rolled back; the next writes commit")
    func leftoverTransactionRolledBack() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("open-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let handle = try SQLiteCommitHandle.open(path: path)
        defer { handle.close() }
        try handle.run("CREATE TABLE t (x INTEGER)", [])
        // arrange: what a failed ROLLBACK leaves, a transaction still open, with a write in it
        try handle.run("BEGIN", [])
        try handle.run("INSERT INTO t VALUES (100)", [])
        // act: a write of one statement, then one of two
        try handle.transaction([("INSERT INTO t VALUES (1)", [])])
        try handle.transaction([("INSERT INTO t VALUES (2)", []), ("INSERT INTO t VALUES (3)", [])])
        // validate: another connection sees both writes, and not the leftover transaction's
        let other = try SQLiteCommitHandle.open(path: path)
        defer { other.close() }
        #expect(try other.integer("SELECT COUNT(*) FROM t") == 3)
        #expect(try other.integer("SELECT SUM(x) FROM t") == 6)
    }

    @Test("a statement on a closed handle is refused with an error")
    func closedHandleRefuses() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("closed-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let handle = try SQLiteCommitHandle.open(path: path)
        handle.close()
        let refusal = #expect(throws: SQLiteCommitError.self) { try handle.transaction([("SELECT 1", [])]) }
        #expect(refusal?.message == "the handle is closed")
    }
}
