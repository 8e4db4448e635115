import Foundation

/// A random id per run, so that messages of earlier runs (which the server replays as history) are ignored.
struct RunIdentity: Sendable {
    let id: String

    /// `bench:<id>:`, the bytes that start every text this run sends.
    let marker: [UInt8]

    /// A new run, or (`id`) a worker's share of its parent's.
    init(id: String = String(format: "%08x", UInt32.random(in: .min ... .max))) {
        self.id = id
        self.marker = Array("bench:\(self.id):".utf8)
    }
}
