import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Reads a process's CPU time and resident memory from Linux's `/proc`.
struct ProcessProbe: Sendable {
    private let directory: String

    /// The generator itself.
    static let current = ProcessProbe(directory: "/proc/self")

    private init(directory: String) {
        self.directory = directory
    }

    /// Checks at once that the process can be read, so a wrong pid fails before connecting.
    init(pid: Int32) throws {
        self.init(directory: "/proc/\(pid)")
        _ = try self.cpuSeconds()
    }

    /// User plus system CPU time so far, in seconds: fields 14 and 15 of `/proc/PID/stat`, in clock ticks.
    func cpuSeconds() throws -> Double {
        let path = "\(self.directory)/stat"
        let text = try Self.read(path)
        // The command name (field 2) is in parentheses and may itself hold spaces or parentheses, so fields are
        // counted from the last ")": the first field after it is field 3.
        guard let close = text.lastIndex(of: ")") else { throw BenchError.procUnavailable(path: path) }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else {
            throw BenchError.procUnavailable(path: path)
        }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// The resident set size (`VmRSS` of `/proc/PID/status`), in KiB.
    func residentKiB() throws -> Int {
        let path = "\(self.directory)/status"
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
