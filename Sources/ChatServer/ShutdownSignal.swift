import Dispatch
import Foundation
import NIOConcurrencyHelpers

/// SIGINT and SIGTERM, caught from the moment ``install()`` runs. The server installs it before it starts, so a
/// signal that arrives during start-up (a slow start under load, the demo bot still logging in) is not the
/// default action, which would kill the process at once, but a graceful shutdown as soon as start-up is done.
final class ShutdownSignal: Sendable {
    private struct State {
        var received = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = NIOLockedValueBox(State())

    private init() {}

    /// Starts catching SIGINT and SIGTERM; call once, before anything else starts.
    static func install() -> ShutdownSignal {
        let signal = ShutdownSignal()
        let queue = DispatchQueue(label: "swiftchat.signals")
        for signalNumber in [SIGINT, SIGTERM] {
            Foundation.signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
            source.setEventHandler { signal.receive() }
            source.resume()
            Self.sources.append(source)
        }
        return signal
    }

    /// Returns once SIGINT or SIGTERM has arrived, at once if one already has.
    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let received = self.state.withLockedValue { state -> Bool in
                if !state.received { state.waiter = continuation }
                return state.received
            }
            if received { continuation.resume() }
        }
    }

    private func receive() {
        let waiter = self.state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
            state.received = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// Kept alive for the life of the process; touched only by `install()`, which runs once.
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []
}
