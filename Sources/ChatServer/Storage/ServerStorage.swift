import ChatCore
import ChatPersistence
import ChatUseCases
import Fluent
import Vapor

/// The database a server runs on: SQLite in the data directory by default (``SQLiteStorage``), PostgreSQL shared
/// by several nodes with `--database-url` (``PostgresStorage``). Either registers itself as the application's
/// Fluent database, which the account, room and attachment stores use; the message store and search are its own.
/// Opened first at start-up, closed last at shutdown.
protocol ServerStorage: Sendable {
    var messages: any MessageStore { get }
    var search: any MessageSearch { get }
    /// Each room's pinned messages, read from the same store as ``messages``.
    var pins: any PinnedMessages { get }
    /// How rooms tell other nodes of receipts and typing (no one on SQLite).
    var relay: any RoomSignalRelay { get }
    /// Whether an account's send is checked as it commits (several nodes share one limit), not only before the
    /// room (``SendChecks/atCommit``).
    var checksSendsAtCommit: Bool { get }
    /// Rooms and memberships, on Fluent's handle of this database (`database`), with what this storage adds.
    func roomDirectory(_ database: any Database) -> any RoomDirectory
    /// What `/readyz` reports about it, beside the database answering a query: name → `ok` or what is wrong.
    var readinessChecks: [String: String] { get }
    /// Starts bringing the other nodes' news to this node (``LocalReach``): commits to the hub's open rooms,
    /// membership changes and revoked tokens, presence, `/echo` frames. Returns how this node's news reaches every
    /// node (``NodeLinks``): on SQLite, this node alone.
    func follow(_ local: LocalReach, configuration: ServerConfiguration) -> NodeLinks
    /// Where attachment bytes are kept: `files`, or the database when the configuration says so and can.
    func attachmentContents(_ files: AttachmentFiles, configuration: ServerConfiguration) -> any AttachmentContents
    /// Runs `service` on one node at a time: here at once on SQLite, on one elected node on PostgreSQL.
    func runOnOneNode(_ service: any OneNodeService) async -> OneNodeRun
    /// Stops following, then closes the database.
    func close() async
}

/// What on this node other nodes' news is delivered to.
struct LocalReach: Sendable {
    let hub: Hub
    let sessions: SessionRegistry
    let presence: PresenceBroadcaster
    let echo: EchoRelay
}

/// How this node's news reaches every node: its open connections' changes, and who comes online or goes offline.
struct NodeLinks: Sendable {
    let sessions: any LiveSessions
    let presence: any PresenceAnnouncer
}
