import Logging
import Metrics
import NIOConcurrencyHelpers

/// PostgreSQL's connection pool as metrics: its connections, the most it opens, and its failed attempts to connect.
///
/// PostgresNIO publishes no metrics of its pool. It tells an observer of its own when it starts to open a connection,
/// when that fails and when a connection closes, and that observer writes each event to the client's background
/// logger (`debug`, `info` for a failure), naming the connection. ``logger(wrapping:)`` puts a handler in front of
/// the server's on that logger: it counts the events and hands on what the server's log level lets through. The
/// messages are PostgresNIO's own words: an upgrade that rewords them leaves the gauge at zero, and `MetricsTests`
/// fails.
///
/// A connection counts from the attempt to open it (a success is not reported) until it fails or closes. Leases and
/// the queries waiting for a connection reach no observer in PostgresNIO 1.33, so neither is exported.
final class PostgresPoolMetrics: Sendable {
    /// The connections being opened or open, by PostgresNIO's connection id.
    private let connections = NIOLockedValueBox(Set<String>())
    private let open: Metrics.Gauge
    private let connectFailures: Metrics.Counter

    init(factory: any MetricsFactory, maximumConnections: Int) {
        self.open = Metrics.Gauge(label: "swiftchat_postgres_connections", factory: factory)
        self.connectFailures = Metrics.Counter(label: "swiftchat_postgres_connect_failures_total", factory: factory)
        Metrics.Gauge(label: "swiftchat_postgres_connections_max", factory: factory).record(maximumConnections)
        self.open.record(0)
    }

    /// `logger` with this pool's counting in front of its handler: the logger to give the `PostgresClient`.
    func logger(wrapping logger: Logger) -> Logger {
        var counting = logger
        counting.handler = PoolEventHandler(pool: self, next: logger.handler)
        return counting
    }

    fileprivate func observe(_ message: String, connection: String?) {
        guard let connection else { return }
        let count: Int? = self.connections.withLockedValue { connections in
            switch message {
            case "Creating new connection": connections.insert(connection)
            case "Connection creation failed":
                connections.remove(connection)
                self.connectFailures.increment()
            case "Connection closed": connections.remove(connection)
            default: return nil
            }
            return connections.count
        }
        if let count { self.open.record(count) }
    }
}

/// Counts the pool's events, then logs what `next`'s level lets through. It reports `debug` as its level, so that the
/// pool's `debug` events reach it whatever the server's level is.
private struct PoolEventHandler: LogHandler {
    let pool: PostgresPoolMetrics
    var next: any LogHandler

    var logLevel: Logger.Level {
        get { min(.debug, self.next.logLevel) }
        set { self.next.logLevel = newValue }
    }

    var metadata: Logger.Metadata {
        get { self.next.metadata }
        set { self.next.metadata = newValue }
    }

    var metadataProvider: Logger.MetadataProvider? {
        get { self.next.metadataProvider }
        set { self.next.metadataProvider = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { self.next[metadataKey: key] }
        set { self.next[metadataKey: key] = newValue }
    }

    func log(event: LogEvent) {
        self.pool.observe(event.message.description, connection: event.metadata?["psql_connection_id"]?.description)
        if event.level >= self.next.logLevel { self.next.log(event: event) }
    }
}
