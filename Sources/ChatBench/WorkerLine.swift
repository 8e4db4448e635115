import Foundation

/// One line between a spread run's parent and a worker process, as JSON: the worker writes to its standard output,
/// the parent to the worker's standard input. Each step is a barrier: every worker says its part, then the parent
/// answers all of them with the run's whole.
enum WorkerLine: Codable, Sendable {
    /// Worker: connected, and this many of its senders greeted. Parent: this many greeted in all.
    case greeted(Int)
    /// Worker: the window it would choose. Parent: the window of the run.
    case window(RunWindow)
    /// Worker: its senders' counts of messages sent in the window, by global sender index. Parent: everyone's.
    case sent([Int])
    /// Worker: what it measured; its last line.
    case result(WorkerResult)
    /// Worker: why it stopped; its last line.
    case failed(String)

    var encoded: Data {
        // Encoding these plain values cannot fail.
        var data = (try? JSONEncoder().encode(self)) ?? Data()
        data.append(UInt8(ascii: "\n"))
        return data
    }

    init(line: String) throws {
        self = try JSONDecoder().decode(WorkerLine.self, from: Data(line.utf8))
    }
}

/// What one worker measured.
struct WorkerResult: Codable, Sendable {
    let outcome: LoadOutcome
    let connectSeconds: Double
    /// The worker's CPU time in the measured window.
    let generatorCPUSeconds: Double
}

/// Lines read from a file handle (a worker's standard input, or the pipe from a worker). Reading blocks, so each
/// line is read on a thread of its own; the steps of a run ask for one line at a time, never two at once, which is
/// what makes the unchecked `Sendable` safe.
final class LineReader: @unchecked Sendable {
    private let handle: FileHandle
    private var pending = Data()

    init(_ handle: FileHandle) {
        self.handle = handle
    }

    /// The next line without its newline; nil once the other end has closed.
    func next() async -> String? {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: self.readLine()) }.start()
        }
    }

    private func readLine() -> String? {
        while true {
            if let newline = self.pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: self.pending[self.pending.startIndex..<newline], as: UTF8.self)
                self.pending.removeSubrange(self.pending.startIndex...newline)
                return line
            }
            let chunk = self.handle.availableData
            if chunk.isEmpty { return nil }
            self.pending.append(chunk)
        }
    }
}
