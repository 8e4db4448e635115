import ChatCore

/// How a ``FluentMessageStore`` writes a room's batch: the one part of the store that differs between SQLite (one
/// writer, ``SerialSQLWriter``) and PostgreSQL (several nodes, ``PostgresEventWriter``). Reads are Fluent's on
/// both.
public protocol EventWriter: Sendable {
    /// Stores the events of one room in one transaction, with what they change (``EventEffects``), and returns them
    /// as ``MessageStore/append(_:isolation:)`` does.
    func append(_ events: [StoredMessage], isolation: isolated (any Actor)?) async throws -> [StoredMessage]

    /// Stores them as ``MessageStore/appendEach(_:isolation:)`` does.
    func appendEach(
        _ events: [StoredMessage], isolation: isolated (any Actor)?
    ) async throws -> [Result<StoredMessage, RoomRejection>]
}
