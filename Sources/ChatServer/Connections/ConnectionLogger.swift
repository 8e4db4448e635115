import Logging
import NIOConcurrencyHelpers

/// Who one connection is in the log: `conn` (a number unique in this process, to follow one connection through the
/// log), `proto` (`chat`, `tcp`, `echo`, `ws`) and, for an account, `user`; the server's own logger already carries
/// `node`. The metadata is made only when a line is logged, so an idle connection pays for a number and two
/// references, not a dictionary.
struct ConnectionLogger: Sendable {
    private static let lastID = NIOLockedValueBox<UInt64>(0)

    private let base: Logger
    private let conn: UInt64
    private let proto: ServerMetrics.Transport
    private let user: String?

    init(_ base: Logger, proto: ServerMetrics.Transport, user: String? = nil) {
        self.base = base
        self.conn = Self.lastID.withLockedValue {
            $0 += 1
            return $0
        }
        self.proto = proto
        self.user = user
    }

    /// The logger to log with, carrying the connection's metadata.
    var logger: Logger {
        var logger = self.base
        logger[metadataKey: "conn"] = "\(self.conn)"
        logger[metadataKey: "proto"] = "\(self.proto.rawValue)"
        if let user = self.user { logger[metadataKey: "user"] = "\(user)" }
        return logger
    }
}
