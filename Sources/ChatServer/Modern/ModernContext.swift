import ChatCore
import NIOCore

/// What every modern connection shares.
struct ModernContext: Sendable {
    let hub: Hub
    let directory: any RoomDirectory
    let messages: any MessageStore
    let sendLimiter: AttemptLimiter<ContinuousClock>
    let maxMessageBytes: Int
    /// The most messages replayed on resume; a larger gap answers `resumed` with `complete: false`.
    let maxReplay: Int
    let pingInterval: TimeAmount
}
