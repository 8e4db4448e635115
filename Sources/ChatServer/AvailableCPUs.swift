import Foundation
import NIOCore

/// How many CPUs this process may run on.
///
/// NIO's `System.coreCount` reads cgroup quotas and the machine's CPU count, but not the affinity mask, so a
/// server started with `taskset -c 0` would still start one event loop per core and make them take turns on one.
/// On Linux the mask is the `Cpus_allowed` line of `/proc/self/status` (`sched_getaffinity` is not exported to
/// Swift by Glibc).
enum AvailableCPUs {
    static var count: Int {
        #if os(Linux)
        if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed:") })
        {
            let mask = line.dropFirst("Cpus_allowed:".count).filter(\.isHexDigit)
            let allowed = mask.reduce(0) { $0 + (Int(String($1), radix: 16) ?? 0).nonzeroBitCount }
            if allowed > 0 { return min(allowed, System.coreCount) }
        }
        #endif
        return System.coreCount
    }
}
