import ChatCore
import ChatProtocol
import FluentKit
import Foundation
import PostgresNIO
import SQLKit

/// The ``RoomDirectory`` on a Fluent SQL database (SQLite or PostgreSQL): Fluent's models where a call is rare,
/// plain SQL where it is on the path of every send or connection.
public struct FluentRoomDirectory: RoomDirectory {
    private let database: any Database
    /// The same database, for the queries written in SQL.
    private let sql: any SQLDatabase
    /// The same PostgreSQL database's client, for the statements prepared once per connection; `nil` on SQLite.
    private let postgres: PostgresClient?
    /// The same database, for the reads written in SQL that return many rows or run for every connection.
    private let rows: ColumnRows

    public init(database: any Database, postgres: PostgresClient? = nil) {
        self.database = database
        self.sql = database.requiredSQL(by: "FluentRoomDirectory")
        self.postgres = postgres
        self.rows = ColumnRows(self.sql)
    }

    public func ensureLobby() async throws {
        if try await RoomRecord.find(RoomID.lobby.rawValue, on: self.database) == nil {
            try await RoomRecord(.lobby).create(on: self.database)
        }
    }

    public func create(_ room: RoomInfo, members: [UUID]) async throws {
        try await self.database.writeTransaction { transaction in
            try await RoomRecord(room).create(on: transaction)
            for member in Set(members) {
                let role: RoomRole = member == room.createdBy && room.kind != .direct ? .owner : .member
                try await MembershipRecord(room: room.id, user: member, role: role).create(on: transaction)
            }
        }
    }

    public func existingDirectRoom(between first: UUID, and second: UUID) async throws -> RoomInfo? {
        try await RoomRecord.query(on: self.database).filter(\.$directKey == Self.directKey(first, second)).first()?
            .info()
    }

    /// What names the direct room of two accounts: their ids, sorted.
    private static func directKey(_ first: UUID, _ second: UUID) -> String {
        [first, second].map(\.uuidString).sorted().joined(separator: ":")
    }

    public func directRoom(between first: UUID, and second: UUID) async throws -> RoomInfo {
        let key = Self.directKey(first, second)
        if let existing = try await RoomRecord.query(on: self.database).filter(\.$directKey == key).first() {
            return try existing.info()
        }
        let room = RoomInfo(id: RoomID(UUID().uuidString), kind: .direct, name: nil, createdBy: first)
        do {
            try await self.database.writeTransaction { transaction in
                try await RoomRecord(room, directKey: key).create(on: transaction)
                for member in Set([first, second]) {
                    try await MembershipRecord(room: room.id, user: member).create(on: transaction)
                }
            }
            return room
        } catch  where (error as? any DatabaseError)?.isConstraintFailure == true {
            // Both users opened the conversation at once: the other request created it.
            guard let existing = try await RoomRecord.query(on: self.database).filter(\.$directKey == key).first()
            else { throw error }
            return try existing.info()
        }
    }

    public func room(_ id: RoomID) async throws -> RoomInfo? {
        try await RoomRecord.find(id.rawValue, on: self.database)?.info()
    }

    /// One query, without Fluent's models: every connection asks, and every `GET /rooms`.
    public func memberships(of user: UUID) async throws -> [Membership] {
        try await self.rows.all(
            """
            SELECT r.id AS id, r.kind AS kind, r.name AS name, r.created_by AS created_by, r.direct_key AS direct_key,
            r.avatar_id AS avatar_id, m.last_read_seq AS last_read_seq, m.pinned_at IS NOT NULL AS pinned,
            m.draft AS draft, COALESCE(m.marked_unread, FALSE) AS marked_unread, \(unsafeRaw: Self.standingColumns)
            FROM memberships m JOIN rooms r ON r.id = m.room_id WHERE m.user_id = \(bind: user)
            """
        ) { row in
            let personal = PersonalRoomState(
                pinned: try row.value("pinned", as: Bool.self), draft: try row.valueIfPresent("draft", as: String.self),
                markedUnread: try row.value("marked_unread", as: Bool.self))
            return Membership(
                room: try RoomRecord.info(from: row), lastReadSeq: try row.value("last_read_seq", as: Int64.self),
                standing: try Self.standing(from: row), personal: personal)
        }
    }

    public func channels() async throws -> [(room: RoomInfo, members: Int)] {
        let channels = try await RoomRecord.query(on: self.database).filter(\.$kind == RoomKind.channel.rawValue).all()
        // Every channel's member count in one query, however many channels there are.
        var counts: [String: Int] = [:]
        let rows = try await self.sql.select()
            .column("room_id").column(SQLFunction("COUNT", args: SQLLiteral.all), as: "members")
            .from(MembershipRecord.schema)
            .join(
                RoomRecord.schema, on: SQLColumn("id", table: RoomRecord.schema), .equal,
                SQLColumn("room_id", table: MembershipRecord.schema)
            )
            .where(SQLColumn("kind", table: RoomRecord.schema), .equal, SQLBind(RoomKind.channel.rawValue))
            .groupBy("room_id")
            .all()
        for row in rows {
            counts[try row.decode(column: "room_id", as: String.self)] = try row.decode(column: "members", as: Int.self)
        }
        return try channels.map { (try $0.info(), counts[try $0.requireID()] ?? 0) }
    }

    public func allRooms(after: RoomID?, limit: Int) async throws -> [RoomListing] {
        let query = RoomRecord.query(on: self.database)
        if let after { query.filter(\.$id > after.rawValue) }
        let rooms = try await query.sort(\.$id).limit(limit).all()
        guard !rooms.isEmpty else { return [] }
        let ids = try rooms.map { try $0.requireID() }
        var counts: [String: Int] = [:]
        for row in try await self.sql.select()
            .column("room_id").column(SQLFunction("COUNT", args: SQLLiteral.all), as: "members")
            .from(MembershipRecord.schema).where("room_id", .in, ids).groupBy("room_id").all()
        {
            counts[try row.decode(column: "room_id", as: String.self)] = try row.decode(column: "members", as: Int.self)
        }
        // Each room's newest event through the (room, seq) index: one lookup per room of the page.
        var latest: [String: Date] = [:]
        for id in ids {
            let row = try await self.sql.select().column("created_at").from(MessageRecord.schema)
                .where("room", .equal, id).orderBy("seq", .descending).limit(1).first()
            latest[id] = try row?.decode(column: "created_at", as: Date.self)
        }
        return try rooms.map { record in
            let id = try record.requireID()
            return RoomListing(room: try record.info(), members: counts[id] ?? 0, lastActivity: latest[id])
        }
    }

    /// One row of one column, not Fluent's models (and prepared on PostgreSQL): every modern send, edit, reaction and
    /// typing notice asks.
    public func isMember(_ user: UUID, of room: RoomID) async throws -> Bool {
        if let postgres = self.postgres {
            let statement = PostgresStatements.IsMember(room: room.rawValue, user: user)
            return try await postgres.withConnection { try await !$0.rows(statement, logger: $0.logger).isEmpty }
        }
        return try await self.sql.raw(
            "SELECT 1 AS member FROM memberships WHERE room_id = \(bind: room.rawValue) AND user_id = \(bind: user) LIMIT 1"
        ).first() != nil
    }

    /// One row, not Fluent's models (and prepared on PostgreSQL): the sends a commit does not check ask it.
    public func standing(of user: UUID, in room: RoomID) async throws -> MemberStanding? {
        if let postgres = self.postgres {
            let statement = PostgresStatements.Standing(room: room.rawValue, user: user)
            return try await postgres.withConnection { connection in
                try await connection.rows(statement, logger: connection.logger).first.map {
                    MemberStanding(
                        role: RoomRole(rawValue: $0.0) ?? .member, muted: $0.1,
                        notifications: $0.2.flatMap(NotificationLevel.init(rawValue:)))
                }
            }
        }
        return try await self.rows.all(
            """
            SELECT \(unsafeRaw: Self.standingColumns) FROM memberships m
            WHERE m.room_id = \(bind: room.rawValue) AND m.user_id = \(bind: user) LIMIT 1
            """, Self.standing(from:)
        ).first
    }

    /// A membership `m`'s standing, as the columns ``standing(from:)`` reads: its role, its notification level, and
    /// whether a mute of the member in the room exists.
    private static let standingColumns = """
        m.role AS role, m.notification_level AS notification_level,
        EXISTS (SELECT 1 FROM room_restrictions x
        WHERE x.room_id = m.room_id AND x.user_id = m.user_id AND x.kind = 'mute') AS muted
        """

    private static func standing(from row: any EventColumns) throws -> MemberStanding {
        MemberStanding(
            role: RoomRole(rawValue: try row.value("role", as: String.self)) ?? .member,
            muted: try row.value("muted", as: Bool.self),
            notifications: try row.valueIfPresent("notification_level", as: String.self).flatMap(
                NotificationLevel.init(rawValue:)))
    }

    /// One query, without Fluent's models: a room opening reads every member's, 50,000 in a large room.
    public func standings(in room: RoomID) async throws -> [UUID: MemberStanding] {
        let rows = try await self.rows.all(
            """
            SELECT m.user_id AS user_id, \(unsafeRaw: Self.standingColumns)
            FROM memberships m WHERE m.room_id = \(bind: room.rawValue)
            """
        ) { row in (try row.value("user_id", as: UUID.self), try Self.standing(from: row)) }
        return Dictionary(rows, uniquingKeysWith: { first, _ in first })
    }

    public func isRestricted(_ user: UUID, in room: RoomID, _ restriction: RoomRestriction) async throws -> Bool {
        try await RoomRestrictionRecord.query(on: self.database)
            .filter(\.$roomID == room.rawValue).filter(\.$userID == user).filter(\.$kind == restriction.rawValue)
            .first() != nil
    }

    public func restrict(_ user: UUID, in room: RoomID, _ restriction: RoomRestriction, by actor: UUID?) async throws {
        do {
            try await RoomRestrictionRecord(room: room, user: user, kind: restriction, by: actor, at: Date())
                .create(on: self.database)
        } catch let error as any DatabaseError where error.isConstraintFailure {
            return  // already so
        }
    }

    public func setNotifications(_ level: NotificationLevel?, of user: UUID, in room: RoomID) async throws -> Bool {
        try await self.updateMembership(of: user, in: room) { $0.set(\.$notificationLevel, to: level?.rawValue) }
    }

    public func personalState(of user: UUID, in room: RoomID) async throws -> PersonalRoomState? {
        try await MembershipRecord.query(on: self.database)
            .filter(\.$roomID == room.rawValue).filter(\.$userID == user).first()?.personal
    }

    public func setPinned(_ pinned: Bool, of user: UUID, in room: RoomID) async throws -> Bool {
        try await self.updateMembership(of: user, in: room) { $0.set(\.$pinnedAt, to: pinned ? Date() : nil) }
    }

    public func setDraft(_ draft: String?, of user: UUID, in room: RoomID) async throws -> Bool {
        try await self.updateMembership(of: user, in: room) { $0.set(\.$draft, to: draft) }
    }

    public func setMarkedUnread(_ marked: Bool, of user: UUID, in room: RoomID) async throws -> Bool {
        try await self.updateMembership(of: user, in: room) { $0.set(\.$markedUnread, to: marked ? true : nil) }
    }

    /// Applies `change` to a member's row; `false` when `user` is not a member.
    private func updateMembership(
        of user: UUID, in room: RoomID, _ change: (QueryBuilder<MembershipRecord>) -> QueryBuilder<MembershipRecord>
    ) async throws -> Bool {
        let membership = MembershipRecord.query(on: self.database)
            .filter(\.$roomID == room.rawValue).filter(\.$userID == user)
        guard try await membership.first() != nil else { return false }
        try await change(
            MembershipRecord.query(on: self.database).filter(\.$roomID == room.rawValue).filter(\.$userID == user)
        ).update()
        return true
    }

    public func lift(_ restriction: RoomRestriction, of user: UUID, in room: RoomID) async throws -> Bool {
        let query = RoomRestrictionRecord.query(on: self.database)
            .filter(\.$roomID == room.rawValue).filter(\.$userID == user).filter(\.$kind == restriction.rawValue)
        guard try await query.first() != nil else { return false }
        try await query.delete()
        return true
    }

    public func restricted(in room: RoomID, _ restriction: RoomRestriction) async throws -> [UUID] {
        try await RoomRestrictionRecord.query(on: self.database)
            .filter(\.$roomID == room.rawValue).filter(\.$kind == restriction.rawValue).sort(\.$createdAt).all()
            .map(\.userID)
    }

    public func members(of room: RoomID) async throws -> [UUID] {
        try await self.rows.all("SELECT user_id FROM memberships WHERE room_id = \(bind: room.rawValue)") {
            try $0.value("user_id", as: UUID.self)
        }
    }

    /// One query of two columns, not Fluent's models: it runs for every batch of presence changes, and the lobby alone
    /// can hold every account.
    public func members(ofRoomsOf users: Set<UUID>, ofAtMost limit: Int) async throws -> [RoomID: [UUID]] {
        guard !users.isEmpty, limit > 0 else { return [:] }
        // A room is small when it has no member past the limit-th: an index probe of at most `limit + 1` entries of
        // the unique (room_id, user_id), where counting a room of 50,000 members would read them all.
        let query: SQLQueryString = """
            SELECT room_id, user_id FROM memberships
            WHERE room_id IN (
                SELECT theirs.room_id
                FROM (SELECT DISTINCT room_id FROM memberships WHERE user_id IN (\(binds: Array(users)))) AS theirs
                WHERE NOT EXISTS (
                    SELECT 1 FROM memberships AS beyond WHERE beyond.room_id = theirs.room_id
                    LIMIT 1 OFFSET \(literal: limit)))
            """
        var members: [RoomID: [UUID]] = [:]
        for (room, user) in try await self.rows.all(
            query,
            {
                (RoomID(try $0.value("room_id", as: String.self)), try $0.value("user_id", as: UUID.self))
            })
        {
            members[room, default: []].append(user)
        }
        return members
    }

    /// Takes a room's messages out of SQLite's search index with FTS5's `delete` command and the tokens they were
    /// indexed with (``SQLiteMessageSearch/unindexing(room:seq:)`` does the same on the writer, by its function).
    private static func unindexMessages(of room: String, on sql: any SQLDatabase) async throws {
        let rows = try await sql.raw(
            """
            SELECT rowid AS id, text, sender_id, mentions, mentions_all FROM messages
            WHERE room = \(bind: room) AND kind = 'message' AND deleted = 0
            AND rowid <= (SELECT indexed_upto FROM search_position)
            """
        ).all()
        for row in rows {
            let tokens = SQLiteSearchTokens.tokens(
                text: try row.decode(column: "text", as: String.self),
                sender: try row.decode(column: "sender_id", as: UUID.self),
                mentions: try row.decode(column: "mentions", as: String?.self),
                all: try row.decode(column: "mentions_all", as: Bool.self))
            try await sql.raw(
                """
                INSERT INTO message_search(message_search, rowid, tokens)
                VALUES ('delete', \(bind: try row.decode(column: "id", as: Int64.self)), \(bind: tokens))
                """
            ).run()
        }
    }

    public func deleteRoom(_ id: RoomID) async throws {
        let room = id.rawValue
        try await self.database.writeTransaction { transaction in
            let sql = transaction.requiredSQL(by: "FluentRoomDirectory.deleteRoom")
            // SQLite's search index lets go of the room's messages first (PostgreSQL's goes with the rows).
            if self.postgres == nil { try await Self.unindexMessages(of: room, on: sql) }
            var statements: [SQLQueryString] = [
                "DELETE FROM reactions WHERE room = \(bind: room)",
                "DELETE FROM attachment_rooms WHERE room = \(bind: room)",
                "DELETE FROM messages WHERE room = \(bind: room)",
                "DELETE FROM reports WHERE room_id = \(bind: room)",
                "DELETE FROM room_restrictions WHERE room_id = \(bind: room)",
                "DELETE FROM memberships WHERE room_id = \(bind: room)",
                "DELETE FROM rooms WHERE id = \(bind: room)",
            ]
            if self.postgres != nil { statements.append("DELETE FROM room_sequences WHERE room = \(bind: room)") }
            for statement in statements { try await sql.raw(statement).run() }
        }
    }

    public func add(_ user: UUID, to room: RoomID) async throws {
        do {
            try await MembershipRecord(room: room, user: user).create(on: self.database)
        } catch let error as any DatabaseError where error.isConstraintFailure {
            return  // already a member
        }
    }

    public func remove(_ user: UUID, from room: RoomID) async throws {
        try await MembershipRecord.query(on: self.database)
            .filter(\.$roomID == room.rawValue).filter(\.$userID == user).delete()
    }

    public func lastReadSeq(of user: UUID, in room: RoomID) async throws -> Int64? {
        try await MembershipRecord.query(on: self.database)
            .filter(\.$roomID == room.rawValue).filter(\.$userID == user).first()?.lastReadSeq
    }

    public func readPositions(in room: RoomID) async throws -> [(user: UUID, seq: Int64)] {
        try await MembershipRecord.query(on: self.database)
            .filter(\.$roomID == room.rawValue).filter(\.$lastReadSeq > 0)
            .all().map { ($0.userID, $0.lastReadSeq) }
    }

    public func markRead(_ user: UUID, in room: RoomID, upTo seq: Int64) async throws -> Int64? {
        guard
            let membership = try await MembershipRecord.query(on: self.database)
                .filter(\.$roomID == room.rawValue).filter(\.$userID == user).first()
        else { return nil }
        if seq > membership.lastReadSeq {
            // Only forward: a conditional update, so two devices racing can never move it back.
            try await MembershipRecord.query(on: self.database)
                .filter(\.$roomID == room.rawValue).filter(\.$userID == user).filter(\.$lastReadSeq < seq)
                .set(\.$lastReadSeq, to: seq)
                .set(\.$markedUnread, to: nil)
                .update()
            // What is stored now: `seq`, or more when another device got there first.
            return try await self.lastReadSeq(of: user, in: room)
        }
        return membership.lastReadSeq
    }
}
