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
        #if canImport(Glibc)
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
        let resource = RLIMIT_NOFILE
        #endif
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return 0 }
        if limit.rlim_cur < limit.rlim_max {
            limit.rlim_cur = limit.rlim_max
            _ = setrlimit(resource, &limit)
        }
        return UInt64(limit.rlim_cur)
    }
}
