import ChatCore
import ChatUseCases
import Foundation
import Metrics
import NIOConcurrencyHelpers
import NIOCore
import Prometheus
import Vapor

/// Every metric one server reports, on a Prometheus registry of its own, served by ``MetricsEndpoint``.
///
/// The parts take their metrics from here through the swift-metrics API. Nothing uses the process-wide
/// `MetricsSystem`: the tests run many servers in one process, and each counts for itself. No label names a room,
/// a user or an address (their number is unbounded); docs/OPERATIONS.md lists every family.
final class ServerMetrics: Sendable {
    let registry: PrometheusCollectorRegistry
    let factory: PrometheusMetricsFactory
    let rooms: RoomMetrics
    /// How long a write waited for the one SQLite write connection before it started.
    let writerWait: Metrics.Timer
    /// From a `send` (or edit, delete, react) read off the socket to its ack written back.
    let ackLatency: Metrics.Timer
    let loginFailures: Metrics.Counter
    let registrations: Metrics.Counter
    let uploads: Metrics.Counter
    let uploadBytes: Metrics.Counter
    let searches: Metrics.Counter
    let searchDuration: Metrics.Timer
    /// How late a task scheduled on an event loop ran: the loop was busy for that long.
    let eventLoopLag: Metrics.Timer
    /// When the process started (``ProcessMetrics``).
    let startedAt: Date
    /// Made once per protocol: every connection shares its protocol's, so a connection costs two references.
    private let connectionsByTransport: [Transport: ConnectionMetrics]

    init(version: String, startedAt: Date = Date()) {
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        let fast: [Duration] = [
            .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2),
            .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
            .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5), .seconds(10),
            // PostgreSQL's store deadline: a call that takes this long fails (PostgresStorage.storeDeadline).
            .seconds(15),
        ]
        for name in [
            "swiftchat_commit_duration_seconds", "swiftchat_ack_latency_seconds",
            "swiftchat_sqlite_writer_wait_seconds", "swiftchat_event_loop_lag_seconds",
            "swiftchat_search_duration_seconds",
        ] {
            factory.durationHistogramBuckets[name] = fast
        }
        factory.valueHistogramBuckets["swiftchat_commit_batch_size"] = [1, 2, 4, 8, 16, 32, 64, 128, 256]
        factory.valueHistogramBuckets["swiftchat_room_queue_depth"] = [1, 2, 4, 8, 16, 32, 64, 128, 256, 1024]
        self.registry = registry
        self.factory = factory
        self.startedAt = startedAt
        self.rooms = RoomMetrics(factory: factory)
        self.writerWait = Metrics.Timer(label: "swiftchat_sqlite_writer_wait_seconds", factory: factory)
        self.ackLatency = Metrics.Timer(label: "swiftchat_ack_latency_seconds", factory: factory)
        self.loginFailures = Metrics.Counter(label: "swiftchat_login_failures_total", factory: factory)
        self.registrations = Metrics.Counter(label: "swiftchat_registrations_total", factory: factory)
        self.uploads = Metrics.Counter(label: "swiftchat_uploads_total", factory: factory)
        self.uploadBytes = Metrics.Counter(label: "swiftchat_upload_bytes_total", factory: factory)
        self.searches = Metrics.Counter(label: "swiftchat_search_requests_total", factory: factory)
        self.searchDuration = Metrics.Timer(label: "swiftchat_search_duration_seconds", factory: factory)
        self.eventLoopLag = Metrics.Timer(label: "swiftchat_event_loop_lag_seconds", factory: factory)
        self.connectionsByTransport = Dictionary(
            uniqueKeysWithValues: Transport.allCases.map { transport in
                let evictions = Dictionary(
                    uniqueKeysWithValues: EvictionReason.allCases.map { reason in
                        (
                            reason,
                            Metrics.Counter(
                                label: "swiftchat_slow_consumer_evictions_total",
                                dimensions: [("reason", reason.rawValue)], factory: factory)
                        )
                    })
                let open = Metrics.Meter(
                    label: "swiftchat_connections", dimensions: [("protocol", transport.rawValue)], factory: factory)
                return (transport, ConnectionMetrics(open: open, evictions: evictions))
            })
        Metrics.Gauge(label: "swiftchat_process_start_time_seconds", factory: factory).record(
            startedAt.timeIntervalSince1970)
        Metrics.Gauge(label: "swiftchat_build_info", dimensions: [("version", version)], factory: factory).record(1)
    }

    /// The open connections of one protocol, and why a slow one was dropped.
    func connections(_ transport: Transport) -> ConnectionMetrics {
        self.connectionsByTransport[transport]!
    }

    /// Counts one refusal by a rate limit or a connection cap.
    func refused(_ kind: RateLimitKind) {
        self.refusals(kind).increment()
    }

    /// The counter of refusals by one rate limit or cap, for parts that keep it.
    func refusals(_ kind: RateLimitKind) -> Metrics.Counter {
        Metrics.Counter(
            label: "swiftchat_rate_limited_total", dimensions: [("kind", kind.rawValue)], factory: self.factory)
    }

    /// Counts one HTTP request by the route it matched (its template, such as `/api/v1/rooms/:room/messages`), its
    /// method and its status. A path no route matched counts as `unmatched`, so probing cannot add labels.
    func request(route: String, method: String, status: UInt) {
        let dimensions = [("route", route), ("method", method), ("status", String(status))]
        Metrics.Counter(label: "swiftchat_http_requests_total", dimensions: dimensions, factory: self.factory)
            .increment()
    }

    /// Measures, on every loop of `group`, how late a task scheduled every second runs.
    func watchEventLoops(_ group: any EventLoopGroup) -> [RepeatedTask] {
        group.makeIterator().map { loop in
            let lag = self.eventLoopLag
            let expected = NIOLockedValueBox(NIODeadline.now() + .seconds(1))
            return loop.scheduleRepeatedTask(initialDelay: .seconds(1), delay: .seconds(1)) { _ in
                let now = NIODeadline.now()
                let late = expected.withLockedValue { expected in
                    defer { expected = now + .seconds(1) }
                    return now - expected
                }
                lag.recordNanoseconds(max(0, late.nanoseconds))
            }
        }
    }

    /// The exposition text `/metrics` serves: the registry's families and the process's, each with its `# HELP`.
    func exposition() -> [UInt8] {
        let families =
            String(decoding: self.registry.emitToBuffer(), as: UTF8.self)
            + ProcessMetrics.exposition(startedAt: self.startedAt)
        return Array(MetricsHelp.adding(to: families).utf8)
    }

    enum Transport: String, Sendable, CaseIterable {
        case chat
        case tcp
        case echo
        case modern = "ws"
    }

    enum EvictionReason: String, Sendable, CaseIterable {
        /// More than the outbound bound waited to be written.
        case outboundQueueFull = "outbound_queue_full"
        /// More pongs waited than the peer took.
        case pongBacklog = "pong_backlog"
        /// More frames waited to be handled than the bound (`/api/v1/ws`).
        case inboundBacklog = "inbound_backlog"
    }

    /// The use cases' limits and the transports' own, by the label their refusals are counted under.
    typealias RateLimitKind = ChatUseCases.RateLimitKind
}

/// What one connection reports: it is open, and why it was dropped if it was too slow.
struct ConnectionMetrics: Sendable {
    let open: Metrics.Meter
    let evictions: [ServerMetrics.EvictionReason: Metrics.Counter]

    /// Counts a slow client dropped, and logs it on the connection's logger at notice (docs/OPERATIONS.md §5).
    func evicted(_ reason: ServerMetrics.EvictionReason, log: ConnectionLogger) {
        self.evictions[reason]?.increment()
        log.logger.notice("dropped a slow client", metadata: ["reason": "\(reason.rawValue)"])
    }
}

extension Application {
    private struct MetricsKey: StorageKey {
        typealias Value = ServerMetrics
    }

    /// This server's metrics.
    var serverMetrics: ServerMetrics {
        get {
            guard let metrics = self.storage[MetricsKey.self] else {
                fatalError("ServerMetrics are set when the server starts")
            }
            return metrics
        }
        set { self.storage[MetricsKey.self] = newValue }
    }
}
