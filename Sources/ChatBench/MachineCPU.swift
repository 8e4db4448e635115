import Foundation

/// The machine's cumulative CPU time, busy and total over all cores, from the first line of `/proc/stat`.
///
/// The server and the generator share the machine's cores: when all of them are busy, latency includes waiting
/// for a CPU and neither process's own figures tell that.
struct MachineCPU: Sendable {
    let busyTicks: UInt64
    let totalTicks: UInt64

    /// Reads the current counters.
    init() throws {
        let path = "/proc/stat"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8),
            let line = text.split(separator: "\n").first, line.hasPrefix("cpu ")
        else {
            throw BenchError.procUnavailable(path: path)
        }
        // user nice system idle iowait irq softirq steal …; guest time is already part of user.
        let ticks = line.split(separator: " ").dropFirst().prefix(8).compactMap { UInt64($0) }
        guard ticks.count == 8 else { throw BenchError.procUnavailable(path: path) }
        self.totalTicks = ticks.reduce(0, +)
        self.busyTicks = self.totalTicks - ticks[3] - ticks[4]
    }

    /// The share of all cores that was busy since `earlier`, in percent.
    func busyPercent(since earlier: MachineCPU) -> Double {
        let total = self.totalTicks - earlier.totalTicks
        return total > 0 ? 100 * Double(self.busyTicks - earlier.busyTicks) / Double(total) : 0
    }
}
