import ChatCore
import ChatUseCases
import NIOCore

/// What every modern connection shares.
struct ModernContext: Sendable {
    let hub: Hub
    /// The one membership check.
    let access: RoomAccess
    let membership: RoomMembership
    let attachments: Attachments
    let sessions: SessionRegistry
    let presence: Presence
    /// Sends each connection its presence snapshot, then its roommates' changes.
    let presenceBroadcaster: PresenceBroadcaster
    /// The connections' workers and the work that follows an ack: over before the database closes.
    let background: BackgroundTasks
    let summaries: RoomSummaries
    let history: History
    let reads: Reads
    let sendChecks: SendChecks
    let maxMessageBytes: Int
    /// The most messages replayed on resume; a larger gap answers `resumed` with `complete: false`.
    let maxReplay: Int
    /// The most `/api/v1/ws` connections one account may have open at once.
    let maxSocketsPerAccount: Int
    let metrics: ServerMetrics
}
