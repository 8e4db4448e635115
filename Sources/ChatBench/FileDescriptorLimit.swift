#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's open-file limit: each client is one socket, and the usual soft limit of 1024 is far below the
/// 10,000+ connections a run may open.
enum FileDescriptorLimit {
    /// Raises the soft limit to the hard limit; when that fails the run goes on and connecting reports the error.
    /// Returns the limit in force, nil when it cannot be read.
    @discardableResult
    static func raiseToHardLimit() -> Int? {
        var limit = rlimit()
        guard getrlimit(Self.resource, &limit) == 0 else { return nil }
        if limit.rlim_cur < limit.rlim_max {
            limit.rlim_cur = limit.rlim_max
            _ = setrlimit(Self.resource, &limit)
        }
        return getrlimit(Self.resource, &limit) == 0 ? Int(clamping: limit.rlim_cur) : nil
    }

    /// Descriptors a process needs besides its clients' sockets (standard streams, the event loop, pipes).
    static let reserve = 100

    #if canImport(Glibc)
    private static let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    private static let resource = RLIMIT_NOFILE
    #endif
}
