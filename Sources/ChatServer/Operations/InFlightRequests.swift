import NIOConcurrencyHelpers
import Vapor

/// Counts the HTTP requests whose handlers are running, so that a shutdown can wait for them before it stops the
/// event loops: Vapor's server stops accepting and closes its connections, but an async handler still running (a
/// login waiting for bcrypt, a WebSocket upgrade) completes its response on an event loop afterwards, and on a loop
/// already shut down that is a crash.
final class InFlightRequests: AsyncMiddleware, Sendable {
    private let running = NIOLockedValueBox(0)

    var count: Int { self.running.withLockedValue { $0 } }

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        self.running.withLockedValue { $0 += 1 }
        defer { self.running.withLockedValue { $0 -= 1 } }
        return try await next.respond(to: request)
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
