import ChatCore
import Vapor

/// The database a server runs on: SQLite in the data directory by default (``SQLiteStorage``), PostgreSQL shared
/// by several nodes with `--database-url` (``PostgresStorage``). Either registers itself as the application's
/// Fluent database, which the account, room and attachment stores use; the message store and search are its own.
/// Opened first at start-up, closed last at shutdown.
protocol ServerStorage: Sendable {
    var messages: any MessageStore { get }
    var search: any MessageSearch { get }
    /// How rooms tell other nodes of receipts and typing (no one on SQLite).
    var relay: any RoomSignalRelay { get }
    /// The per-account send limit: in memory for one node, shared through the database for several.
    func sendLimit(burst: Int, rate: Int) -> any SendLimit
    /// What `/readyz` reports about it, beside the database answering a query: name → `ok` or what is wrong.
    var readinessChecks: [String: String] { get }
    /// Starts delivering other nodes' commits to the hub's open rooms, and their membership changes and revoked
    /// tokens to this node's connections; returns what the use cases tell the open connections through (this
    /// node's `sessions` alone on SQLite).
    func follow(_ hub: Hub, sessions: SessionRegistry) -> any LiveSessions
    /// Stops following, then closes the database.
    func close() async
}
