import SQLiteNIO
import VaporCSQLite

/// The write path's own `sqlite3` handle: it runs a whole transaction in one call and keeps its prepared statements.
///
/// SQLiteNIO prepares every statement anew and runs each in a job of its own on its thread pool, then hands the
/// result to the event loop. A batch's `INSERT`, whose preparation compiles the search index's triggers too, cost
/// 9 % of a `/chat` message's CPU to prepare, and a transaction of several statements one hop between threads per
/// statement (docs/BENCHMARKS.md, "Where the time goes"). Here ``SerialSQLWriter`` runs each transaction in one job
/// on the writer's thread, and a statement is prepared once per distinct SQL text.
///
/// Not thread-safe: every call after ``open(path:)`` comes from the writer's one thread, one at a time.
final class SQLiteCommitHandle: @unchecked Sendable {
    /// The most statements kept prepared; past it they are all finalized and the cache starts over. A batch's
    /// `INSERT` has a text per number of rows, so the cache would otherwise grow with every batch size seen.
    static let cachedStatements = 64

    private var handle: OpaquePointer?
    private var statements: [String: OpaquePointer] = [:]

    private init(handle: OpaquePointer?) {
        self.handle = handle
    }

    /// Opens the database file, with SQLite's own busy timeout for the moments another connection holds the write
    /// lock (Fluent's for accounts and rooms, the checkpointer's restart).
    static func open(path: String) throws -> SQLiteCommitHandle {
        sqlite_nio_sqlite3_initialize()
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_CREATE | SQLITE_OPEN_READWRITE | SQLITE_OPEN_FULLMUTEX | SQLITE_OPEN_EXRESCODE
        let opened = sqlite_nio_sqlite3_open_v2(path, &handle, flags, nil)
        guard opened == SQLITE_OK else {
            let message = handle.flatMap { sqlite_nio_sqlite3_errmsg($0) }.map { String(cString: $0) }
            sqlite_nio_sqlite3_close(handle)
            throw SQLiteCommitError(code: opened, message: message ?? "cannot open \(path)")
        }
        sqlite_nio_sqlite3_busy_timeout(handle, 60_000)
        do {
            try SQLiteSearchTokens.install(on: handle)
        } catch {
            sqlite_nio_sqlite3_close(handle)
            throw error
        }
        return SQLiteCommitHandle(handle: handle)
    }

    /// Runs the statements in order, as one transaction when there are several: all of them or none.
    func transaction(_ statements: [(sql: String, binds: [SQLiteData])]) throws {
        try self.endLeftoverTransaction()
        guard statements.count > 1 else {
            if let only = statements.first { try self.run(only.sql, only.binds) }
            return
        }
        try self.run("BEGIN IMMEDIATE", [])
        do {
            for statement in statements { try self.run(statement.sql, statement.binds) }
            try self.run("COMMIT", [])
        } catch {
            try? self.run("ROLLBACK", [])
            throw error
        }
    }

    /// Rolls back a transaction that an earlier call left open (its `ROLLBACK` failed): otherwise the next
    /// statements would join it, and nothing from then on would be committed.
    private func endLeftoverTransaction() throws {
        guard let handle = self.handle, sqlite_nio_sqlite3_get_autocommit(handle) == 0 else { return }
        try self.run("ROLLBACK", [])
    }

    /// The first column of the first row of `sql`, as an integer (for `PRAGMA`s).
    func integer(_ sql: String) throws -> Int? {
        let statement = try self.prepared(sql)
        defer { sqlite_nio_sqlite3_reset(statement) }
        let stepped = sqlite_nio_sqlite3_step(statement)
        guard stepped == SQLITE_ROW else {
            try self.check(stepped)
            return nil
        }
        return Int(sqlite_nio_sqlite3_column_int64(statement, 0))
    }

    /// Runs one statement to its end, ignoring any rows.
    func run(_ sql: String, _ binds: [SQLiteData]) throws {
        let statement = try self.prepared(sql)
        defer {
            sqlite_nio_sqlite3_reset(statement)
            sqlite_nio_sqlite3_clear_bindings(statement)
        }
        for (index, bind) in binds.enumerated() {
            try self.check(Self.bind(bind, at: Int32(index + 1), to: statement))
        }
        var stepped = sqlite_nio_sqlite3_step(statement)
        while stepped == SQLITE_ROW { stepped = sqlite_nio_sqlite3_step(statement) }
        try self.check(stepped)
    }

    /// Finalizes every statement and closes the handle.
    func close() {
        self.forgetStatements()
        sqlite_nio_sqlite3_close(self.handle)
        self.handle = nil
    }

    private func prepared(_ sql: String) throws -> OpaquePointer {
        if let statement = self.statements[sql] { return statement }
        // A write queued after ``close()`` (the indexer's timer may fire then).
        guard self.handle != nil else { throw SQLiteCommitError(code: SQLITE_MISUSE, message: "the handle is closed") }
        if self.statements.count >= Self.cachedStatements { self.forgetStatements() }
        var statement: OpaquePointer?
        let flags = UInt32(SQLITE_PREPARE_PERSISTENT)
        try self.check(sqlite_nio_sqlite3_prepare_v3(self.handle, sql, -1, flags, &statement, nil))
        guard let statement else { throw SQLiteCommitError(code: SQLITE_MISUSE, message: "empty statement: \(sql)") }
        self.statements[sql] = statement
        return statement
    }

    private func forgetStatements() {
        for statement in self.statements.values { sqlite_nio_sqlite3_finalize(statement) }
        self.statements.removeAll()
    }

    private func check(_ code: Int32) throws {
        guard code != SQLITE_OK, code != SQLITE_DONE else { return }
        let message = sqlite_nio_sqlite3_errmsg(self.handle).map { String(cString: $0) } ?? "unknown error"
        throw SQLiteCommitError(code: code, message: message)
    }

    private static func bind(_ value: SQLiteData, at index: Int32, to statement: OpaquePointer) -> Int32 {
        switch value {
        case .integer(let integer):
            return sqlite_nio_sqlite3_bind_int64(statement, index, Int64(integer))
        case .float(let double):
            return sqlite_nio_sqlite3_bind_double(statement, index, double)
        case .text(let text):
            return sqlite_nio_sqlite3_bind_text64(
                statement, index, text, UInt64(text.utf8.count), transient, UInt8(SQLITE_UTF8))
        case .blob(let buffer):
            return buffer.withUnsafeReadableBytes {
                sqlite_nio_sqlite3_bind_blob64(statement, index, $0.baseAddress, UInt64($0.count), transient)
            }
        case .null:
            return sqlite_nio_sqlite3_bind_null(statement, index)
        }
    }
}

/// SQLite's `SQLITE_TRANSIENT`: it copies the bound bytes before the call returns.
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// A statement of the write path that SQLite refused, with SQLite's extended result code and message.
public struct SQLiteCommitError: Error, CustomStringConvertible {
    public let code: Int32
    public let message: String

    public var description: String { "SQLite error \(self.code): \(self.message)" }
}
