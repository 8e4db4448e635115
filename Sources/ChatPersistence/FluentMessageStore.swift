import ChatCore
import FluentKit
import FluentSQL
import Foundation
import NIOCore
import SQLKit

/// The ``MessageStore`` on a Fluent database: SQLite by default, written against FluentKit and SQLKit only so
/// that another driver can serve it. Reads go through Fluent; writes through one dedicated SQL connection.
public struct FluentMessageStore: MessageStore {
    private let database: any Database
    private let writer: any SQLDatabase

    /// - Parameters:
    ///   - database: Fluent's handle, for reads.
    ///   - writer: the connection every write goes through (``SQLiteWriteConnection/sql`` for SQLite).
    public init(database: any Database, writer: any SQLDatabase) {
        self.database = database
        self.writer = writer
    }

    /// One multi-row `INSERT` per batch: a single statement, so SQLite applies it atomically, all rows or none.
    ///
    /// Written with SQLKit rather than Fluent's model API, which builds each row by reflection and bridges through
    /// Swift tasks. The future is awaited on the caller's actor (the room, whose executor is an event loop), so the
    /// result resumes the room directly instead of hopping through the global executor.
    public func append(_ messages: [StoredMessage], isolation: isolated (any Actor)? = #isolation) async throws {
        let builder = self.writer.insert(into: MessageRecord.schema).columns(MessageRecord.columns)
        for message in messages {
            builder.values(MessageRecord.values(of: message))
        }
        let written: EventLoopFuture<Void> = self.writer.execute(sql: builder.insert) { _ in }
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

    public func page(in room: RoomID, before: Int64?, limit: Int) async throws -> [StoredMessage] {
        let query = MessageRecord.query(on: self.database).filter(\.$room == room.rawValue)
        if let before {
            query.filter(\.$seq < before)
        }
        return try await query.sort(\.$seq, .descending).limit(limit).all().reversed().map { try $0.storedMessage() }
    }

    public func message(from sender: UUID, clientMsgID: String) async throws -> StoredMessage? {
        try await MessageRecord.query(on: self.database)
            .filter(\.$senderID == sender)
            .filter(\.$clientMsgID == clientMsgID)
            .first()?.storedMessage()
    }

    public func lastSequence(in room: RoomID) async throws -> Int64 {
        try await MessageRecord.query(on: self.database)
            .filter(\.$room == room.rawValue)
            .max(\.$seq) ?? 0
    }
}
