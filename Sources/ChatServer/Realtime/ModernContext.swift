import ChatCore
import ChatUseCases
import NIOCore

/// What every modern connection shares. A class: every connection's session and worker hold one reference to it
/// rather than a copy of its many fields (about 1 KiB each, per connection).
final class ModernContext: Sendable {
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

    init(
        hub: Hub, access: RoomAccess, membership: RoomMembership, attachments: Attachments, sessions: SessionRegistry,
        presence: Presence, presenceBroadcaster: PresenceBroadcaster, background: BackgroundTasks,
        summaries: RoomSummaries, history: History, reads: Reads, sendChecks: SendChecks, maxMessageBytes: Int,
        maxReplay: Int, maxSocketsPerAccount: Int, metrics: ServerMetrics
    ) {
        self.hub = hub
        self.access = access
        self.membership = membership
        self.attachments = attachments
        self.sessions = sessions
        self.presence = presence
        self.presenceBroadcaster = presenceBroadcaster
        self.background = background
        self.summaries = summaries
        self.history = history
        self.reads = reads
        self.sendChecks = sendChecks
        self.maxMessageBytes = maxMessageBytes
        self.maxReplay = maxReplay
        self.maxSocketsPerAccount = maxSocketsPerAccount
        self.metrics = metrics
    }
}
