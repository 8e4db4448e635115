import Foundation

/// A random id per run, so that messages of earlier runs (which the server replays as history) are ignored.
struct RunIdentity: Sendable {
    let id: String

    /// `bench:<id>:`, the bytes that start every text this run sends.
    let marker: [UInt8]

    init() {
        self.id = String(format: "%08x", UInt32.random(in: .min ... .max))
        self.marker = Array("bench:\(self.id):".utf8)
    }
}
