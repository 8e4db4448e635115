import ChatUseCases
import NIOConcurrencyHelpers
import NIOPosix
import Vapor

/// bcrypt on threads of its own, a few at a time.
///
/// A bcrypt hash takes a quarter of a second at the default cost. On the shared thread pool (or an event loop) a
/// flood of registrations would queue behind each other without limit and delay every login. Here at most
/// ``threads`` hashes run at once and at most ``maxWaiting`` wait; past that the caller gets ``PasswordHasherBusy``
/// (HTTP 503 with `Retry-After`) at once instead of a growing queue.
final class BcryptPool: ChatUseCases.PasswordHasher {
    let threads: Int
    let maxWaiting: Int
    private let cost: Int
    private let pool: NIOThreadPool
    private let waiting = NIOLockedValueBox(0)
    private let computed = NIOLockedValueBox(0)

    /// How many hashes and verifications have run (for tests: a refused registration must cost none).
    var jobsRun: Int { self.computed.withLockedValue { $0 } }

    init(cost: Int, threads: Int, maxWaiting: Int = 64) {
        self.cost = cost
        self.threads = threads
        self.maxWaiting = maxWaiting
        self.pool = NIOThreadPool(numberOfThreads: threads)
        self.pool.start()
    }

    func hash(_ password: String) async throws -> String {
        let cost = self.cost
        return try await self.run { try Bcrypt.hash(password, cost: cost) }
    }

    func verify(_ password: String, against digest: String) async throws -> Bool {
        try await self.run { try Bcrypt.verify(password, created: digest) }
    }

    func shutdown() async {
        try? await self.pool.shutdownGracefully()
    }

    private func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        let admitted = self.waiting.withLockedValue { waiting in
            guard waiting < self.maxWaiting + self.threads else { return false }
            waiting += 1
            return true
        }
        guard admitted else { throw PasswordHasherBusy() }
        defer { self.waiting.withLockedValue { $0 -= 1 } }
        self.computed.withLockedValue { $0 += 1 }
        return try await self.pool.runIfActive(work)
    }
}
