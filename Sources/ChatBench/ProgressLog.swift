import Foundation

/// ProgressLog lines on standard error, so that standard output holds only the report.
struct ProgressLog: Sendable {
    let enabled: Bool

    func say(_ line: String) {
        guard self.enabled else { return }
        FileHandle.standardError.write(Data("chat-bench: \(line)\n".utf8))
    }
}
