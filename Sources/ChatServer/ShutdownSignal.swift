import Dispatch
import Foundation
import NIOConcurrencyHelpers

/// Waits for SIGINT or SIGTERM.
enum ShutdownSignal {
    static func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let queue = DispatchQueue(label: "swiftchat.signals")
            let resumed = ResumeOnce(continuation)
            for signalNumber in [SIGINT, SIGTERM] {
                signal(signalNumber, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
                source.setEventHandler { resumed.resume() }
                source.resume()
                Self.sources.append(source)
            }
        }
    }

    /// Kept alive for the life of the process; touched only from `wait()`, which runs once.
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []
}

/// Resumes a continuation the first time it is asked to, whichever signal arrives first or twice.
private final class ResumeOnce: Sendable {
    private let continuation: NIOLockedValueBox<CheckedContinuation<Void, Never>?>

    init(_ continuation: CheckedContinuation<Void, Never>) {
        self.continuation = NIOLockedValueBox(continuation)
    }

    func resume() {
        self.continuation.withLockedValue { continuation in
            continuation?.resume()
            continuation = nil
        }
    }
}
