import Foundation
import Logging

/// Text log lines for systemd's journal: each starts with its syslog priority (`<5>` for notice, `<3>` for error…),
/// which journald reads as the entry's priority (`SyslogLevelPrefix=`, on by default) so that `journalctl -p
/// warning` filters, and leaves out the time, which the journal records itself. Used when standard output is the
/// journal's stream (``isJournal(_:standardOutputSocket:)``).
struct JournalLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { self.metadata[key] }
        set { self.metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = self.metadata(of: event)
        FileHandle.standardOutput.write(
            Data(
                Self.line(event.level, label: self.label, metadata: merged, source: event.source, "\(event.message)")
                    .utf8))
    }

    /// One line: `<N>level label: key=value [source] message`, with line breaks inside it escaped (the journal
    /// would make each one an entry of its own).
    static func line(
        _ level: Logger.Level, label: String, metadata: Logger.Metadata, source: String, _ message: String
    ) -> String {
        let fields = metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let text = ([level.rawValue, "\(label):"] + fields + ["[\(source)]", message]).joined(separator: " ")
        return "<\(Self.priority(level))>" + text.replacingOccurrences(of: "\n", with: "\\n") + "\n"
    }

    /// syslog's priorities (RFC 5424 §6.2.1), as journald reads them.
    static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }

    /// Whether standard output is the journal's stream: systemd sets `JOURNAL_STREAM` to the `device:inode` of the
    /// socket it connected (systemd.exec(5)); a unit that sends standard output elsewhere keeps the variable but not
    /// the socket, and then gets plain lines. Socket inodes are unique on their one file system, so the inode
    /// decides.
    static func isJournal(_ environment: [String: String], standardOutputSocket inode: UInt64?) -> Bool {
        guard let value = environment["JOURNAL_STREAM"], let inode,
            let named = value.split(separator: ":").last.flatMap({ UInt64($0) })
        else { return false }
        return named == inode
    }

    /// The inode of the socket this process's standard output is, from `/proc/self/fd/1` (`socket:[INODE]`); `nil`
    /// for a terminal, a pipe or a file.
    static var standardOutputSocket: UInt64? {
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/1"),
            target.hasPrefix("socket:["), target.hasSuffix("]")
        else { return nil }
        return UInt64(target.dropFirst("socket:[".count).dropLast())
    }
}
