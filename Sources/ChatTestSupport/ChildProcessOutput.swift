import Foundation
import NIOConcurrencyHelpers

/// An executable of this package that `swift build` put beside the running test bundle.
public func builtExecutable(named name: String) -> URL? {
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<4 {
        let candidate = directory.appendingPathComponent(name)
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        directory.deleteLastPathComponent()
    }
    return nil
}

/// Pushes each line a child process writes into `lines`, from a dedicated thread with blocking reads (no run loop
/// and no dispatch source: both misbehave around process exit on Linux); finishes `lines` at end of file.
func readLines(from handle: FileHandle, into lines: Inbox<String>) {
    let reader = Thread {
        var partial = Data()
        while true {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            partial.append(chunk)
            while let newline = partial.firstIndex(of: UInt8(ascii: "\n")) {
                lines.push(String(decoding: partial[..<newline], as: UTF8.self))
                partial.removeSubrange(...newline)
            }
        }
        lines.finish()
    }
    reader.start()
}

/// A child's exit status, recorded by the termination handler and awaited by tests.
final class ExitStatus: Sendable {
    private let status = NIOLockedValueBox<Int32?>(nil)

    func record(_ status: Int32) {
        self.status.withLockedValue { $0 = status }
    }

    func wait() async -> Int32 {
        while true {
            if let status = self.status.withLockedValue({ $0 }) { return status }
            try? await Task.sleep(for: .milliseconds(10))
        }
    }
}
