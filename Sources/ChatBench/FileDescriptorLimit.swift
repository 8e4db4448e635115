#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's open-file limit: each client is one socket, and the usual soft limit of 1024 is far below the
/// 10,000+ connections a run may open.
enum FileDescriptorLimit {
    /// Raises the soft limit to the hard limit; when that fails the run goes on and connecting reports the error.
    static func raiseToHardLimit() {
        #if canImport(Glibc)
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
        let resource = RLIMIT_NOFILE
        #endif
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(resource, &limit)
    }
}
