import Foundation
import Logging

/// `--log-format json`: one JSON object per line on standard output, with the time, level, label, message and
/// every metadata value as a field of its own, for log shippers. Lines are written whole, so concurrent lines
/// never interleave.
struct JSONLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { self.metadata[key] }
        set { self.metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var fields: [String: String] = [:]
        for (key, value) in self.metadata(of: event) { fields[key] = "\(value)" }
        fields["time"] = Self.timestamp()
        fields["level"] = event.level.rawValue
        fields["label"] = self.label
        fields["message"] = "\(event.message)"
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard var line = try? encoder.encode(fields) else { return }
        line.append(UInt8(ascii: "\n"))
        FileHandle.standardOutput.write(line)
    }

    private static func timestamp() -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date())
    }
}

extension LogHandler {
    /// A line's metadata: the handler's, then its provider's, then the event's own, each winning over the one before.
    func metadata(of event: LogEvent) -> Logger.Metadata {
        self.metadata.merging(self.metadataProvider?.get() ?? [:]) { $1 }.merging(event.metadata ?? [:]) { $1 }
    }
}
