import ChatCore
import FluentKit
import FluentSQLiteDriver
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import Testing

@testable import ChatPersistence

/// The stores' transactions on SQLite (``Database/writeTransaction(_:)``) and how Fluent's connections wait for the
/// write lock (``SQLiteLockWaits``).
@Suite("SQLite transactions hold the write lock from their start")
struct WriteTransactionTests {
    static func account(_ name: String) -> Account {
        Account(id: UUID(), username: name, displayName: name, avatarColor: "#000000", passwordHash: "x")
    }

    /// Fluent's own `BEGIN` would let the second connection commit between the read and the write, and the write
    /// would then fail with `SQLITE_BUSY_SNAPSHOT`.
    @Test("a transaction that reads, then writes while another connection writes, commits; the other waits for it")
    func readThenWrite() async throws {
        let file = try await MigratedSQLiteFile.open()
        let logger = Logger(label: "write-transaction-test")
        // A second pool: another connection to the same file, as the message writer and the admin tool have. Its
        // thread is its own: the connection sleeps on it while it waits for the lock.
        let thread = NIOThreadPool(numberOfThreads: 1)
        thread.start()
        let others = Databases(threadPool: thread, on: MultiThreadedEventLoopGroup.singleton)
        others.use(.sqlite(.file(file.path)), as: .sqlite)
        try await SQLiteLockWaits.apply(
            to: others, .sqlite, eventLoops: MultiThreadedEventLoopGroup.singleton, logger: logger)
        let other = FluentAccountStore(
            database: others.database(logger: logger, on: MultiThreadedEventLoopGroup.singleton.next())!)
        // Both closed whatever happens: a pool left open stops the test process.
        var failure: (any Error)?
        do {
            let otherCommitted = NIOLockedValueBox(false)
            let otherWrite = try await file.database.writeTransaction { database in
                #expect(try await UserRecord.query(on: database).count() == 0)
                let write = Task {
                    let created = try await other.create(Self.account("bob"))
                    otherCommitted.withLockedValue { $0 = true }
                    return created
                }
                // Long enough for the other write to commit, had this transaction not held the lock.
                try await Task.sleep(for: .milliseconds(300))
                #expect(otherCommitted.withLockedValue { $0 } == false, "the other connection waits for the lock")
                try await UserRecord(Self.account("ann")).create(on: database)
                return write
            }
            #expect(try await otherWrite.value)
            let names = try await UserRecord.query(on: file.database).all().map(\.username).sorted()
            #expect(names == ["ann", "bob"])
        } catch {
            failure = error
        }
        await others.shutdownAsync()
        try? await thread.shutdownGracefully()
        await file.close()
        if let failure { throw failure }
    }

    @Test("every one of Fluent's SQLite connections waits for the lock with SQLite's busy timeout")
    func busyTimeoutOnEveryLoop() async throws {
        let file = try await MigratedSQLiteFile.open()
        let logger = Logger(label: "write-transaction-test")
        for loop in MultiThreadedEventLoopGroup.singleton.makeIterator() {
            let database = try #require(file.databases.database(logger: logger, on: loop))
            let row = try await database.requiredSQL(by: "test").raw("PRAGMA busy_timeout").first()
            #expect(try row?.decode(column: "timeout", as: Int.self) == SQLiteLockWaits.milliseconds)
        }
        await file.close()
    }
}
