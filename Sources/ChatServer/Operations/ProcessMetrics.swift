import Foundation

/// The standard `process_*` families every Prometheus client library exports, read from Linux's `/proc` at each
/// scrape (nothing is kept between scrapes): CPU seconds, resident and virtual memory, open and allowed file
/// descriptors, start time. On a system without `/proc` the families are left out.
enum ProcessMetrics {
    /// The families in the text format, `# TYPE` lines included (``MetricsHelp`` adds the `# HELP` lines).
    static func exposition(startedAt: Date) -> String {
        var text = ""
        func family(_ name: String, _ type: String, _ value: Double?) {
            guard let value else { return }
            text += "# TYPE \(name) \(type)\n\(name) \(value)\n"
        }
        let stat = Self.stat()
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        family("process_cpu_seconds_total", "counter", stat.map { Double($0.userTicks + $0.systemTicks) / ticks })
        family("process_resident_memory_bytes", "gauge", stat.map { Double($0.residentPages) * Double(getpagesize()) })
        family("process_virtual_memory_bytes", "gauge", stat.map { Double($0.virtualBytes) })
        family("process_open_fds", "gauge", Self.openDescriptors().map(Double.init))
        // Not `.map(Double.init)`: for a UInt64 that picks `init(bitPattern:)`.
        family("process_max_fds", "gauge", FileDescriptorLimit.current.map { Double($0) })
        family("process_start_time_seconds", "gauge", startedAt.timeIntervalSince1970)
        return text
    }

    private struct Stat {
        var userTicks: Int
        var systemTicks: Int
        var virtualBytes: Int
        var residentPages: Int
    }

    /// `/proc/self/stat`: after the command name in parentheses (which may hold spaces), field 14 is utime, 15
    /// stime, 23 vsize and 24 rss (proc(5)).
    private static func stat() -> Stat? {
        guard let text = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return nil }
        // Fields from the third (state) on; field n is at index n - 3.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 21, let user = Int(fields[11]), let system = Int(fields[12]),
            let virtual = Int(fields[20]), let resident = Int(fields[21])
        else { return nil }
        return Stat(userTicks: user, systemTicks: system, virtualBytes: virtual, residentPages: resident)
    }

    private static func openDescriptors() -> Int? {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")).map(\.count)
    }
}
