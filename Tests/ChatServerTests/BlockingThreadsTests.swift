import ChatProtocol
import ChatTestSupport
import Dispatch
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import Testing

/// A server's blocking work (its SQLite statements, attachment files, lookups) runs on threads of its own, so that
/// blocking work elsewhere in the process cannot stall it (ARCHITECTURE.md §4).
///
/// Before, every server used the process-wide pool, one thread per core. When other servers' SQLite connections
/// waited there for their files' write locks (their busy timeout sleeps on the thread), one server's requests waited
/// ten seconds and then failed with `503`: a test run of many servers in one process did, now and then.
@Suite("A server's blocking threads are its own")
struct BlockingThreadsTests {
    @Test("with every thread of the process-wide pool taken, a server still registers an account and reads it back")
    func processWidePoolTaken() async throws {
        try await withTestServer { server in
            let taken = try await TakenThreads.takeAll(of: .singleton)
            // Frees the pool if the server never answers, so that the test ends in a failure rather than a hang.
            let cap = Task {
                try await Task.sleep(for: .seconds(20))
                taken.release(byCap: true)
            }
            let registered = try await server.api.send(
                .POST, "/register", json: RegisterRequest(username: "ann", password: "correct horse"))
            let me = try await server.api.send(.GET, "/me", token: try registered.decode(AuthSession.self).token)
            let answeredWhileTaken = !taken.releasedByCap
            taken.release(byCap: false)
            cap.cancel()
            #expect(registered.status == 201)
            #expect(me.status == 200)
            #expect(answeredWhileTaken, "the server answered only once the process-wide pool was free again")
        }
    }
}

/// Jobs that hold every thread of a pool until released.
private final class TakenThreads: Sendable {
    private let gate = DispatchSemaphore(value: 0)
    private let state = NIOLockedValueBox((released: false, byCap: false))
    private let count: Int

    private init(count: Int) {
        self.count = count
    }

    var releasedByCap: Bool { self.state.withLockedValue { $0.byCap } }

    /// Returns once a job runs on each of the pool's threads (NIO sizes the process-wide pool to the cores).
    static func takeAll(of pool: NIOThreadPool) async throws -> TakenThreads {
        let taken = TakenThreads(count: System.coreCount)
        let running = NIOLockedValueBox(0)
        for _ in 0..<taken.count {
            pool.submit { _ in
                running.withLockedValue { $0 += 1 }
                taken.gate.wait()
            }
        }
        try await eventually("a job on every thread of the pool") { running.withLockedValue { $0 } == taken.count }
        return taken
    }

    /// Lets the jobs end; only the first call does anything.
    func release(byCap: Bool) {
        let first = self.state.withLockedValue { state in
            defer { state = (true, state.released ? state.byCap : byCap) }
            return !state.released
        }
        guard first else { return }
        for _ in 0..<self.count { self.gate.signal() }
    }
}
