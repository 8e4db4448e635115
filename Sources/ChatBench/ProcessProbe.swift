import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Reads the CPU time and resident memory of a process, or the sum over several (the nodes of one server), from
/// Linux's `/proc`.
struct ProcessProbe: Sendable {
    private let directories: [String]

    /// The generator itself.
    static let current = ProcessProbe(directories: ["/proc/self"])

    private init(directories: [String]) {
        self.directories = directories
    }

    /// Checks at once that every process can be read, so a wrong pid fails before connecting.
    init(pids: [Int32]) throws {
        self.init(directories: pids.map { "/proc/\($0)" })
        _ = try self.cpuSeconds()
    }

    /// User plus system CPU time so far, in seconds, summed over the processes.
    func cpuSeconds() throws -> Double {
        try self.cpuTimes().total
    }

    /// User and system CPU time so far, in seconds, each summed over the processes: system time is the kernel's
    /// work for them, mostly the socket path.
    func cpuTimes() throws -> CPUTimes {
        try self.directories.reduce(CPUTimes(user: 0, system: 0)) { sum, directory in
            let times = try Self.cpuTimes(in: directory)
            return CPUTimes(user: sum.user + times.user, system: sum.system + times.system)
        }
    }

    /// The resident set size (`VmRSS` of `/proc/PID/status`) summed over the processes, in KiB.
    func residentKiB() throws -> Int {
        try self.directories.reduce(0) { $0 + (try Self.residentKiB(in: $1)) }
    }

    /// Fields 14 and 15 of `/proc/PID/stat`, in clock ticks, as seconds.
    private static func cpuTimes(in directory: String) throws -> CPUTimes {
        let path = "\(directory)/stat"
        let text = try Self.read(path)
        // The command name (field 2) is in parentheses and may itself hold spaces or parentheses, so fields are
        // counted from the last ")": the first field after it is field 3.
        guard let close = text.lastIndex(of: ")") else { throw BenchError.procUnavailable(path: path) }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else {
            throw BenchError.procUnavailable(path: path)
        }
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        return CPUTimes(user: user / ticks, system: system / ticks)
    }

    private static func residentKiB(in directory: String) throws -> Int {
        let path = "\(directory)/status"
        let text = try Self.read(path)
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kib = line.split(whereSeparator: \.isWhitespace).dropFirst().first.flatMap({ Int($0) })
        else {
            throw BenchError.procUnavailable(path: path)
        }
        return kib
    }

    private static func read(_ path: String) throws -> String {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw BenchError.procUnavailable(path: path)
        }
        return text
    }
}

/// CPU time in seconds, split as `/proc` splits it.
struct CPUTimes: Sendable {
    let user: Double
    let system: Double
    var total: Double { self.user + self.system }
}
