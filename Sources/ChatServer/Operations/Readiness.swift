import Metrics
import NIOConcurrencyHelpers

/// Whether this node should get new clients: false from the moment it starts draining (SIGTERM, SIGINT), so a
/// load balancer polling `/readyz` sends new clients elsewhere while the open ones finish. It also counts the
/// requests still being handled, which a shutdown waits for.
final class Readiness: Sendable {
    private let draining = NIOLockedValueBox(false)
    let requests: InFlightRequests

    /// `requestLimit`: requests handled at once (``InFlightRequests``); `refusals` counts those refused.
    init(requestLimit: Int, refusals: Metrics.Counter) {
        self.requests = InFlightRequests(limit: requestLimit, refusals: refusals)
    }

    var isDraining: Bool { self.draining.withLockedValue { $0 } }

    func startDraining() {
        self.draining.withLockedValue { $0 = true }
    }
}
