import ChatCore
import FluentKit
import FluentSQL

/// The ``MessageStore`` on a Fluent database: SQLite by default, written against FluentKit and SQLKit only so
/// that another driver can serve it.
public struct FluentMessageStore: MessageStore {
    private let database: any Database

    public init(database: any Database) {
        self.database = database
    }

    /// One transaction per batch. Written with Fluent's future API and awaited on the caller's actor (the room,
    /// whose executor is an event loop): the result arrives on the database's event loop and resumes the room
    /// directly, instead of hopping through the global executor at every Fluent `async` layer.
    public func append(_ messages: [StoredMessage], isolation: isolated (any Actor)? = #isolation) async throws {
        let records = messages.map(MessageRecord.init)
        let written = self.database.withConnection { connection in
            SQLiteTuning.prepareForWrite(connection).flatMap {
                connection.transaction { transaction in records.create(on: transaction) }
            }
        }
        try await withCheckedThrowingContinuation(isolation: isolation) { (continuation: CheckedContinuation<Void, any Error>) in
            written.whenComplete { continuation.resume(with: $0) }
        }
    }

    public func latest(in room: RoomID, limit: Int) async throws -> [StoredMessage] {
        try await MessageRecord.query(on: self.database)
            .filter(\.$room == room.rawValue)
            .sort(\.$seq, .descending)
            .limit(limit)
            .all()
            .reversed()
            .map { try $0.storedMessage() }
    }

    public func lastSequence(in room: RoomID) async throws -> Int64 {
        try await MessageRecord.query(on: self.database)
            .filter(\.$room == room.rawValue)
            .max(\.$seq) ?? 0
    }
}
