import Dispatch
import Foundation
import NIOConcurrencyHelpers

/// SIGHUP for the life of the process: the conventional "read your files again" (the TLS certificate and key).
/// Installed before start-up, so that a SIGHUP then (a configuration tool, a log rotation) cannot end the process as
/// its default action would; one that came before the server could reload is applied once it can.
final class ReloadSignal {
    private let source: any DispatchSourceSignal
    /// The reload once the server runs; until then, whether a SIGHUP came.
    private let state = NIOLockedValueBox<(reload: (@Sendable () -> Void)?, pending: Bool)>((nil, false))

    /// Call once, first thing in the command's `run()`.
    static func install() -> ReloadSignal {
        signal(SIGHUP, SIG_IGN)
        return ReloadSignal(
            source: DispatchSource.makeSignalSource(signal: SIGHUP, queue: DispatchQueue(label: "swiftchat.reload")))
    }

    private init(source: any DispatchSourceSignal) {
        self.source = source
        source.setEventHandler { [state] in
            let reload = state.withLockedValue { state in
                if state.reload == nil { state.pending = true }
                return state.reload
            }
            reload?()
        }
        source.resume()
    }

    /// From now on each SIGHUP runs `reload`; one that came before runs it now.
    func handle(_ reload: @escaping @Sendable () -> Void) {
        let pending = self.state.withLockedValue { state in
            state.reload = reload
            defer { state.pending = false }
            return state.pending
        }
        if pending { reload() }
    }
}
