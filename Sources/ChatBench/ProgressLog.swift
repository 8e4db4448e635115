import Foundation

/// ProgressLog lines on standard error, so that standard output holds only the report.
struct ProgressLog: Sendable {
    let enabled: Bool
    /// Which process speaks, in a run spread over several.
    var prefix = "chat-bench"

    func say(_ line: String) {
        guard self.enabled else { return }
        FileHandle.standardError.write(Data("\(self.prefix): \(line)\n".utf8))
    }
}
