#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's open-file limit. Every client is a socket, and a soft limit of 1024 (common on Linux) would
/// refuse connections long before the server runs out of anything else.
enum FileDescriptorLimit {
    /// Raises the soft limit to the hard limit, and returns the limit in force.
    @discardableResult
    static func raiseToHardLimit() -> UInt64 {
        var limit = rlimit()
        guard getrlimit(Self.resource, &limit) == 0 else { return 0 }
        if limit.rlim_cur < limit.rlim_max {
            limit.rlim_cur = limit.rlim_max
            _ = setrlimit(Self.resource, &limit)
        }
        return UInt64(limit.rlim_cur)
    }

    /// The soft limit in force, or `nil` when it cannot be read.
    static var current: UInt64? {
        var limit = rlimit()
        return getrlimit(Self.resource, &limit) == 0 ? UInt64(limit.rlim_cur) : nil
    }

    /// Descriptors kept for everything but clients: the listeners, the database's connections, SQLite's files,
    /// attachments being read or written, outgoing webhooks and pushes.
    static let reserve: UInt64 = 512

    /// How many connections the server may accept under a descriptor limit of `limit`: `configured`, or fewer when
    /// the limit would run out first. Past the limit `accept` fails and a client would wait in the listen backlog
    /// unanswered, where under the cap it gets its 503 or `err:` line.
    static func connections(configured: Int, limit: UInt64?) -> Int {
        guard let limit else { return configured }
        return min(configured, Int(clamping: limit > Self.reserve ? limit - Self.reserve : 1))
    }

    #if canImport(Glibc)
    private static let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    private static let resource = RLIMIT_NOFILE
    #endif
}
