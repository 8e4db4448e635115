import NIOPosix
import Vapor

/// The server's own threads for blocking work: Fluent's SQLite statements, attachment files, host-name lookups.
///
/// Vapor runs that work on the process-wide `NIOSingletons` pool by default, one thread per core. A SQLite statement
/// that waits for another connection's write lock sleeps on its thread until the lock is free or the busy timeout
/// (``SQLiteLockWaits``, 10 s) gives up, and the connection that holds the lock needs a thread of the same pool for
/// its next statement. When waiters hold every thread, the holder cannot go on and nothing moves until the waiters
/// give up, as `503`s. Fluent keeps one SQLite connection per event loop, so at most one fewer than that can wait
/// while one holds the lock: one thread per event loop, plus two so that a file read or a slow lookup never delays
/// the holder, leaves it a thread. The pool is this server's alone: a second server in the same process (tests run
/// many) or a tool with its own connections cannot take its threads.
enum BlockingThreads {
    static let spare = 2

    /// Gives `application` a pool of its own, before anything (Fluent's databases first) has taken Vapor's default.
    /// Vapor starts it and shuts it down with the application.
    static func install(on application: Application, eventLoops: Int) {
        application.threadPool = NIOThreadPool(numberOfThreads: eventLoops + Self.spare)
    }
}
