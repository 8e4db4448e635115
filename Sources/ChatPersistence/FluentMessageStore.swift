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

    public func append(_ messages: [StoredMessage]) async throws {
        let records = messages.map(MessageRecord.init)
        try await self.database.withConnection { connection in
            try await SQLiteTuning.prepareForWrite(connection)
            try await connection.transaction { transaction in
                try await records.create(on: transaction)
            }
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
