import ChatCore
import ChatProtocol
import FluentKit
import FluentSQL
import Foundation
import NIOCore
import SQLKit

/// The ``MessageStore`` on a Fluent SQL database, SQLite or PostgreSQL: reads in plain SQL, decoded column by column
/// (``MessageRecord/storedMessage(from:)``), writes through the database's ``EventWriter``.
public struct FluentMessageStore: MessageStore, PinnedMessages {
    private let sql: any SQLDatabase
    private let writer: any EventWriter
    /// On SQLite, where events are read: on SQLite's thread, each row decoded straight from SQLite's values
    /// (``SQLiteEventColumns``); elsewhere through SQLKit.
    private let sqlite: SQLiteRows?

    /// - Parameters:
    ///   - database: Fluent's handle, for reads.
    ///   - writer: what every write goes through: ``SQLiteWriteConnection/writer`` for SQLite, a
    ///     ``PostgresEventWriter`` for PostgreSQL.
    public init(database: any Database, writer: any EventWriter) {
        self.sql = database.requiredSQL(by: "FluentMessageStore")
        self.writer = writer
        self.sqlite = SQLiteRows(self.sql)
    }

    @discardableResult
    public func append(
        _ messages: [StoredMessage], isolation: isolated (any Actor)? = #isolation
    ) async throws -> [StoredMessage] {
        try await self.writer.append(messages, isolation: isolation)
    }

    public func appendEach(
        _ messages: [StoredMessage], isolation: isolated (any Actor)? = #isolation
    ) async throws -> [Result<StoredMessage, RoomRejection>] {
        try await self.writer.appendEach(messages, isolation: isolation)
    }

    public func latest(in room: RoomID, limit: Int) async throws -> [StoredMessage] {
        try await self.page(in: room, before: nil, limit: limit)
    }

    public func page(in room: RoomID, before: Int64?, limit: Int) async throws -> [StoredMessage] {
        let newestFirst = try await self.events(
            "room = \(bind: room.rawValue) AND seq < \(bind: before ?? .max) ORDER BY seq DESC LIMIT \(bind: limit)")
        return try await self.withReactions(newestFirst.reversed(), in: room)
    }

    public func message(in room: RoomID, seq: Int64) async throws -> StoredMessage? {
        try await self.withReactions(self.events("room = \(bind: room.rawValue) AND seq = \(bind: seq)"), in: room)
            .first
    }

    public func pinnedMessages(in room: RoomID, limit: Int) async throws -> [StoredMessage] {
        let pinned = try await self.events(
            """
            room = \(bind: room.rawValue) AND pinned_at IS NOT NULL ORDER BY pinned_at DESC, seq DESC \
            LIMIT \(bind: limit)
            """)
        return try await self.withReactions(pinned, in: room)
    }

    public func message(from sender: UUID, clientMsgID: String) async throws -> StoredMessage? {
        try await self.events("sender_id = \(bind: sender) AND client_msg_id = \(bind: clientMsgID) LIMIT 1").first
    }

    public func lastMessage(in room: RoomID, upTo last: Int64) async throws -> StoredMessage? {
        let newest = try await self.events(
            """
            room = \(bind: room.rawValue) AND seq <= \(bind: last) AND kind = \(bind: EventKind.message.rawValue) \
            ORDER BY seq DESC LIMIT 1
            """)
        return try await self.withReactions(newest, in: room).first
    }

    public func unreadCount(in room: RoomID, after seq: Int64, upTo last: Int64, for reader: UUID) async throws -> Int64
    {
        let row = try await self.sql.raw(
            """
            SELECT COUNT(*) AS unread FROM (SELECT 1 FROM messages WHERE room = \(bind: room.rawValue) \
            AND seq > \(bind: seq) AND seq <= \(bind: last) AND kind = \(bind: EventKind.message.rawValue) \
            AND deleted = \(bind: false) AND (sender_id <> \(bind: reader) OR sender_via IS NOT NULL) \
            LIMIT \(bind: UnreadCount.limit)) AS counted
            """
        ).first()
        return try row?.decode(column: "unread", as: Int64.self) ?? 0
    }

    public func unreadMentions(in room: RoomID, after seq: Int64, upTo last: Int64, for reader: UUID) async throws
        -> Int64
    {
        let row = try await self.sql.raw(
            """
            SELECT COUNT(*) AS unread FROM (SELECT 1 FROM mentions x JOIN messages m ON m.room = x.room \
            AND m.seq = x.seq WHERE x.room = \(bind: room.rawValue) AND x.seq > \(bind: seq) AND x.seq <= \(bind: last) \
            AND (x.user_id = \(bind: reader) OR x.user_id IS NULL) \
            AND (m.sender_id <> \(bind: reader) OR m.sender_via IS NOT NULL) LIMIT \(bind: UnreadCount.limit)) AS counted
            """
        ).first()
        return try row?.decode(column: "unread", as: Int64.self) ?? 0
    }

    /// One query: the named accounts that are members, with, when `@all` is asked, whether it counts.
    public func resolveMentions(_ request: MentionRequest, in room: RoomID) async throws -> Mentions {
        var accounts: [UUID] = []
        if !request.names.isEmpty {
            let rows = try await self.sql.raw(
                """
                SELECT u.id AS id, u.username_key AS name FROM users u JOIN memberships m ON m.user_id = u.id \
                WHERE m.room_id = \(bind: room.rawValue) AND u.username_key IN (\(binds: request.names))
                """
            ).all()
            let byName = Dictionary(
                try rows.map {
                    (try $0.decode(column: "name", as: String.self), try $0.decode(column: "id", as: UUID.self))
                },
                uniquingKeysWith: { first, _ in first })
            // In the order named; `ann.` before `ann` when both exist.
            for name in request.names {
                if let id = byName[name], !accounts.contains(id) { accounts.append(id) }
            }
            accounts.removeAll { $0 == request.sender.id && request.sender.via == nil }
        }
        guard request.all else { return Mentions(accounts: accounts) }
        let row = try await self.sql.raw(
            """
            SELECT r.kind AS kind, (SELECT COUNT(*) FROM memberships WHERE room_id = r.id) AS members, \
            (SELECT role FROM memberships WHERE room_id = r.id AND user_id = \(bind: request.sender.id)) AS role \
            FROM rooms r WHERE r.id = \(bind: room.rawValue)
            """
        ).first()
        guard let row else { return Mentions(accounts: accounts) }
        let kind = try row.decode(column: "kind", as: String.self)
        let members = try row.decode(column: "members", as: Int.self)
        let role = try row.decode(column: "role", as: String?.self).flatMap(RoomRole.init(rawValue:)) ?? .member
        // A webhook was made by the room's owner or a moderator, and speaks with their standing.
        let allowed =
            kind == RoomKind.direct.rawValue || members <= MentionRequest.openAllLimit
            || (request.sender.via == nil && role >= .moderator) || request.sender.via == .webhook
        return Mentions(accounts: allowed ? [] : accounts, all: allowed)
    }

    public func lastSequence(in room: RoomID) async throws -> Int64 {
        let row = try await self.sql.raw("SELECT MAX(seq) AS last FROM messages WHERE room = \(bind: room.rawValue)")
            .first()
        return try row?.decode(column: "last", as: Int64?.self) ?? 0
    }

    /// The events of the rows that match `condition` (what follows `WHERE`, ordering and limit included).
    private func events(_ condition: SQLQueryString) async throws -> [StoredMessage] {
        let query: SQLQueryString = "SELECT \(MessageRecord.selected) FROM messages WHERE \(condition)"
        guard let sqlite else {
            return try await self.sql.raw(query).all().map { try MessageRecord.storedMessage(from: $0) }
        }
        return try await sqlite.all(query).map { try MessageRecord.storedMessage(fromSQLite: $0) }
    }

    /// The events with each message's reactions filled in (text, tombstones and quotes are kept current in the
    /// rows themselves). One range query covers the events' span of `seq`s, however many there are.
    private func withReactions(_ events: [StoredMessage], in room: RoomID) async throws -> [StoredMessage] {
        let targets = events.filter { $0.kind == .message && !$0.deleted }.map(\.seq)
        guard let first = targets.min(), let last = targets.max() else { return events }
        let rows = try await self.sql.raw(
            """
            SELECT target_seq, emoji, user_id FROM reactions WHERE room = \(bind: room.rawValue) \
            AND target_seq >= \(bind: first) AND target_seq <= \(bind: last) ORDER BY created_at
            """
        ).all()
        var byTarget: [Int64: [Reaction]] = [:]
        for row in rows {
            let target = try row.decode(column: "target_seq", as: Int64.self)
            let emoji = try row.decode(column: "emoji", as: String.self)
            let user = try row.decode(column: "user_id", as: UUID.self)
            if let index = byTarget[target]?.firstIndex(where: { $0.emoji == emoji }) {
                byTarget[target]![index].users.append(user)
            } else {
                byTarget[target, default: []].append(Reaction(emoji: emoji, users: [user]))
            }
        }
        let targeted = Set(targets)
        var events = events
        for index in events.indices where targeted.contains(events[index].seq) {
            events[index].reactions = byTarget[events[index].seq] ?? []
        }
        return events
    }
}
