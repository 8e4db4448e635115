import Dispatch
import Foundation

/// Runs an action on every SIGHUP for the life of the process: the conventional "read your files again" (the TLS
/// certificate and key). Without it SIGHUP would end the process.
enum ReloadSignal {
    /// Call once, from the command's `run()`.
    static func handle(_ reload: @escaping @Sendable () -> Void) {
        signal(SIGHUP, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGHUP, queue: DispatchQueue(label: "swiftchat.reload"))
        source.setEventHandler(handler: reload)
        source.resume()
        Self.source = source
    }

    /// Kept alive for the life of the process; set once, from `handle`.
    nonisolated(unsafe) private static var source: (any DispatchSourceSignal)?
}
