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

    #if canImport(Glibc)
    private static let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    private static let resource = RLIMIT_NOFILE
    #endif
}
