import ChatPersistence
import Foundation
import Logging
import NIOCore
import NIOPosix
import SQLKit
import Testing

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
}
