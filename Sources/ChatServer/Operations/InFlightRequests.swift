import ChatProtocol
import Metrics
import NIOConcurrencyHelpers
import Vapor

/// Counts the HTTP requests whose handlers are running, and answers `503` with `Retry-After: 1` at once to a request
/// that finds `limit` running (PROTOCOL.md §6.1, `--max-pending-requests`).
///
/// *Why a limit:* a request that waits (for the database, for bcrypt) holds its tasks and buffers meanwhile, about
/// 60 KiB. When thousands arrive together (every client of a failed node reconnecting, a benchmark's burst of WebSocket
/// upgrades) a node that takes them all queues them behind its database: 9,500 upgrades at once grew a node by
/// 650 MiB, and it refused some after they had waited (docs/BENCHMARKS.md "Scale"). Refusing the excess at once costs
/// nothing, and clients retry with their backoff, as they do after any refusal.
///
/// The count also lets a shutdown wait for the running handlers before it stops the event loops: Vapor's server stops
/// accepting and closes its connections, but an async handler still running (a login waiting for bcrypt, a WebSocket
/// upgrade) completes its response on an event loop afterwards, and on a loop already shut down that is a crash.
final class InFlightRequests: Middleware, Sendable {
    private let running = NIOLockedValueBox(0)
    private let limit: Int
    private let refusals: Metrics.Counter

    init(limit: Int, refusals: Metrics.Counter) {
        self.limit = limit
        self.refusals = refusals
    }

    var count: Int { self.running.withLockedValue { $0 } }

    /// What a request over the limit is answered: the same `503` as a login that finds bcrypt busy.
    static let busy = APIError(
        status: .serviceUnavailable, code: .unavailable, message: "The server is busy; try again in a second.",
        headers: ["Retry-After": "1"])

    func respond(to request: Request, chainingTo next: any Responder) -> EventLoopFuture<Response> {
        let admitted = self.running.withLockedValue { running in
            guard running < self.limit else { return false }
            running += 1
            return true
        }
        guard admitted else {
            self.refusals.increment()
            return request.eventLoop.makeSucceededFuture(APIErrorMiddleware.response(for: Self.busy))
        }
        return next.respond(to: request).always { _ in self.running.withLockedValue { $0 -= 1 } }
    }

    /// Returns once no handler runs, or after `limit`; then gives the last responses a moment to reach their
    /// event loops (a handler returns just before its response is handed to the loop).
    func finished(within limit: Duration) async {
        let deadline = ContinuousClock.now + limit
        while self.count > 0, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
        try? await Task.sleep(for: .milliseconds(50))
    }
}
