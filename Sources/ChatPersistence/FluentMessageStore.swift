import ChatCore
import ChatProtocol
import FluentKit
import FluentSQL
import Foundation
import NIOCore
import SQLKit

/// The ``MessageStore`` on a Fluent database, SQLite or PostgreSQL: reads go through Fluent, writes through the
/// database's ``EventWriter``.
public struct FluentMessageStore: MessageStore {
    private let database: any Database
    private let writer: any EventWriter

    /// - Parameters:
    ///   - database: Fluent's handle, for reads.
    ///   - writer: what every write goes through: ``SQLiteWriteConnection/writer`` for SQLite, a
    ///     ``PostgresEventWriter`` for PostgreSQL.
    public init(database: any Database, writer: any EventWriter) {
        self.database = database
        self.writer = writer
    }

    @discardableResult
    public func append(
        _ messages: [StoredMessage], isolation: isolated (any Actor)? = #isolation
    ) async throws -> [StoredMessage] {
        try await self.writer.append(messages, isolation: isolation)
    }

    public func latest(in room: RoomID, limit: Int) async throws -> [StoredMessage] {
        let records = try await MessageRecord.query(on: self.database)
            .filter(\.$room == room.rawValue)
            .sort(\.$seq, .descending)
            .limit(limit)
            .all()
        return try await self.current(records.reversed(), in: room)
    }

    public func page(in room: RoomID, before: Int64?, limit: Int) async throws -> [StoredMessage] {
        let query = MessageRecord.query(on: self.database).filter(\.$room == room.rawValue)
        if let before {
            query.filter(\.$seq < before)
        }
        let records = try await query.sort(\.$seq, .descending).limit(limit).all()
        return try await self.current(records.reversed(), in: room)
    }

    public func message(in room: RoomID, seq: Int64) async throws -> StoredMessage? {
        let records = try await MessageRecord.query(on: self.database)
            .filter(\.$room == room.rawValue)
            .filter(\.$seq == seq)
            .all()
        return try await self.current(records, in: room).first
    }

    public func message(from sender: UUID, clientMsgID: String) async throws -> StoredMessage? {
        try await MessageRecord.query(on: self.database)
            .filter(\.$senderID == sender)
            .filter(\.$clientMsgID == clientMsgID)
            .first()?.storedMessage()
    }

    public func lastMessage(in room: RoomID, upTo last: Int64) async throws -> StoredMessage? {
        let records = try await MessageRecord.query(on: self.database)
            .filter(\.$room == room.rawValue)
            .filter(\.$seq <= last)
            .filter(\.$kind == EventKind.message.rawValue)
            .sort(\.$seq, .descending)
            .limit(1)
            .all()
        return try await self.current(records, in: room).first
    }

    public func unreadCount(in room: RoomID, after seq: Int64, upTo last: Int64, for reader: UUID) async throws -> Int64
    {
        Int64(
            try await MessageRecord.query(on: self.database)
                .filter(\.$room == room.rawValue)
                .filter(\.$seq > seq)
                .filter(\.$seq <= last)
                .filter(\.$kind == EventKind.message.rawValue)
                .filter(\.$deleted == false)
                .group(.or) { $0.filter(\.$senderID != reader).filter(\.$senderVia != nil) }
                .count())
    }

    public func lastSequence(in room: RoomID) async throws -> Int64 {
        try await MessageRecord.query(on: self.database)
            .filter(\.$room == room.rawValue)
            .max(\.$seq) ?? 0
    }

    /// The events with each message's reactions filled in (text, tombstones and quotes are kept current in the
    /// rows themselves).
    private func current(_ records: [MessageRecord], in room: RoomID) async throws -> [StoredMessage] {
        var events = try records.map { try $0.storedMessage() }
        let seqs = events.filter { $0.kind == .message && !$0.deleted }.map(\.seq)
        guard !seqs.isEmpty else { return events }
        let reactions = try await ReactionRecord.query(on: self.database)
            .filter(\.$room == room.rawValue)
            .filter(\.$targetSeq ~~ seqs)
            .sort(\.$createdAt)
            .all()
        var byTarget: [Int64: [Reaction]] = [:]
        for reaction in reactions {
            if let index = byTarget[reaction.targetSeq]?.firstIndex(where: { $0.emoji == reaction.emoji }) {
                byTarget[reaction.targetSeq]![index].users.append(reaction.userID)
            } else {
                byTarget[reaction.targetSeq, default: []].append(
                    Reaction(emoji: reaction.emoji, users: [reaction.userID]))
            }
        }
        for index in events.indices {
            events[index].reactions = byTarget[events[index].seq] ?? []
        }
        return events
    }
}
