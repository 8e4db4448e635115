import ChatCore
import ChatProtocol
import Foundation
import SQLKit

/// What storing an event changes besides its own row (PROTOCOL.md §9.1–§9.2), as SQL statements for the same
/// transaction.
enum EventEffects {
    /// Everything that stores `events`, in order: one multi-row `INSERT` of their rows, then what each changes.
    /// Both writers run these in one transaction (``SerialSQLWriter``, ``PostgresEventWriter``).
    static func storing(_ events: [StoredMessage], on sql: any SQLDatabase) -> [any SQLExpression] {
        let index = SearchIndexKind(sql)
        let insert = MessageRowsInsert(
            rows: events.map(MessageRecord.values),
            searchVectors: index == .postgres ? events.map(PostgresMessageSearch.vector(of:)) : nil)
        return [insert] + events.flatMap { Self.statements(for: $0, index: index) }
    }

    static func statements(for event: StoredMessage, index: SearchIndexKind) -> [any SQLExpression] {
        let room = event.room.rawValue
        switch event.kind {
        case .message:
            // The sender's read position moves by a trigger (AddReadOnSend).
            return event.attachments.map { attachment in
                SQLQueryString(
                    "INSERT INTO attachment_rooms (id, attachment_id, room) VALUES (\(bind: UUID()), \(bind: attachment.id), \(bind: room)) ON CONFLICT DO NOTHING"
                )
            } + Self.mentionRows(event.mentions, room: room, seq: event.seq, date: event.date)
        case .edit:
            guard let target = event.target else { return [] }
            // An edit's mentions replace the message's.
            let unindexing = index == .sqlite ? [SQLiteMessageSearch.unindexing(room: room, seq: target)] : []
            let indexing = index == .sqlite ? [SQLiteMessageSearch.indexing(room: room, seq: target)] : []
            return unindexing + [
                SQLQueryString(
                    "UPDATE messages SET text = \(bind: event.text), edited_at = \(bind: event.date), mentions = \(bind: MessageRecord.mentionsColumn(event.mentions)), mentions_all = \(bind: event.mentions.all)\(Self.searchVector(of: event, index: index)) WHERE room = \(bind: room) AND seq = \(bind: target)"
                ),
                SQLQueryString("DELETE FROM mentions WHERE room = \(bind: room) AND seq = \(bind: target)"),
            ] + Self.mentionRows(event.mentions, room: room, seq: target, date: event.date) + indexing
        case .delete:
            guard let target = event.target else { return [] }
            // The text goes everywhere it was kept: the message, its edits, and quotes of it in replies. Its
            // attachments stop being readable through this room unless another message here still carries them
            // (the `attachments` column is JSON holding each id as text, upper-case as Swift writes it, while
            // PostgreSQL shows a `uuid` in lower case: both are lowered; this runs before the column is cleared).
            let unindexing = index == .sqlite ? [SQLiteMessageSearch.unindexing(room: room, seq: target)] : []
            return unindexing + [
                SQLQueryString(
                    """
                    DELETE FROM attachment_rooms WHERE room = \(bind: room)
                    AND LOWER((SELECT attachments FROM messages WHERE room = \(bind: room) AND seq = \(bind: target))) LIKE '%' || LOWER(CAST(attachment_id AS TEXT)) || '%'
                    AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.room = \(bind: room) AND m.seq <> \(bind: target)
                        AND m.deleted = \(bind: false) AND LOWER(m.attachments) LIKE '%' || LOWER(CAST(attachment_rooms.attachment_id AS TEXT)) || '%')
                    """),
                SQLQueryString(
                    "UPDATE messages SET text = '', deleted = \(bind: true), attachments = NULL, preview = NULL, pinned_at = NULL, edited_at = NULL, mentions = NULL, mentions_all = \(bind: false)\(unsafeRaw: index == .postgres ? ", search_vector = NULL" : "") WHERE room = \(bind: room) AND seq = \(bind: target)"
                ),
                SQLQueryString("DELETE FROM mentions WHERE room = \(bind: room) AND seq = \(bind: target)"),
                SQLQueryString(
                    "UPDATE messages SET text = '' WHERE room = \(bind: room) AND target_seq = \(bind: target) AND kind = 'edit'"
                ),
                SQLQueryString(
                    "UPDATE messages SET reply_text = '' WHERE room = \(bind: room) AND reply_seq = \(bind: target)"),
                SQLQueryString("DELETE FROM reactions WHERE room = \(bind: room) AND target_seq = \(bind: target)"),
            ]
        case .reaction:
            guard let target = event.target, let emoji = event.emoji else { return [] }
            if event.added == true {
                return [
                    SQLQueryString(
                        "INSERT INTO reactions (id, room, target_seq, user_id, emoji, created_at) VALUES (\(bind: UUID()), \(bind: room), \(bind: target), \(bind: event.sender.id), \(bind: emoji), \(bind: event.date)) ON CONFLICT DO NOTHING"
                    )
                ]
            }
            return [
                SQLQueryString(
                    "DELETE FROM reactions WHERE room = \(bind: room) AND target_seq = \(bind: target) AND user_id = \(bind: event.sender.id) AND emoji = \(bind: emoji)"
                )
            ]
        case .preview:
            guard let target = event.target else { return [] }
            // The image becomes readable through this room as a sent attachment does, and stays so: a preview's
            // image is a public page's, and several messages may show the same one.
            let image = event.preview?.image.map { image in
                SQLQueryString(
                    "INSERT INTO attachment_rooms (id, attachment_id, room) VALUES (\(bind: UUID()), \(bind: image.id), \(bind: room)) ON CONFLICT DO NOTHING"
                )
            }
            return (image.map { [$0] } ?? []) + [
                SQLQueryString(
                    "UPDATE messages SET preview = \(bind: MessageRecord.previewColumn(event.preview)) WHERE room = \(bind: room) AND seq = \(bind: target) AND deleted = \(bind: false)"
                )
            ]
        case .pin:
            guard let target = event.target else { return [] }
            let pinnedAt: Date? = event.added == false ? nil : event.date
            return [
                SQLQueryString(
                    "UPDATE messages SET pinned_at = \(bind: pinnedAt) WHERE room = \(bind: room) AND seq = \(bind: target) AND deleted = \(bind: false)"
                )
            ]
        case .rename:
            // The room's name changes in the transaction that stores the event: summaries never disagree with
            // the sequence.
            return [SQLQueryString("UPDATE rooms SET name = \(bind: event.text) WHERE id = \(bind: room)")]
        case .joined, .left, .invited, .removed, .banned, .role:
            return Self.membershipStatements(for: event)
        }
    }

    /// `, search_vector = …` for an edit on PostgreSQL: the column holds the message's tokens as edited (the author's,
    /// with the edit's mentions); SQLite's index is re-filled by its own statements.
    private static func searchVector(of edit: StoredMessage, index: SearchIndexKind) -> SQLQueryString {
        guard index == .postgres else { return "" }
        let tokens = SearchDocument.tokens(text: edit.text, sender: edit.sender.id, mentions: edit.mentions)
        return ", search_vector = CAST(\(bind: SearchDocument.tsvector(tokens)) AS tsvector)"
    }

    /// The `mentions` rows of message `seq`: one per account named, or one for everyone (`@all`).
    private static func mentionRows(_ mentions: Mentions, room: String, seq: Int64, date: Date) -> [any SQLExpression] {
        let users: [UUID?] = mentions.all ? [nil] : mentions.accounts
        return users.map { user in
            SQLQueryString(
                "INSERT INTO mentions (room, seq, user_id, created_at) VALUES (\(bind: room), \(bind: seq), \(bind: user), \(bind: date))"
            )
        }
    }

    /// A membership event changes the membership it announces in its own transaction: the sequence and the
    /// memberships never disagree, on any node. A ban lasts in `room_restrictions`; a member joins only while not
    /// banned (a ban committed between the caller's check and this join wins: the event stays, the member does not).
    private static func membershipStatements(for event: StoredMessage) -> [any SQLExpression] {
        guard let member = event.member?.id else { return [] }
        let room = event.room.rawValue
        let removal = SQLQueryString(
            "DELETE FROM memberships WHERE room_id = \(bind: room) AND user_id = \(bind: member)")
        switch event.kind {
        case .joined, .invited:
            return [
                SQLQueryString(
                    """
                    INSERT INTO memberships (id, room_id, user_id, last_read_seq, joined_at, role)
                    SELECT \(bind: UUID()), \(bind: room), \(bind: member), 0, \(bind: event.date), \(bind: RoomRole.member.rawValue)
                    WHERE NOT EXISTS (SELECT 1 FROM room_restrictions WHERE room_id = \(bind: room) AND user_id = \(bind: member) AND kind = \(bind: RoomRestriction.ban.rawValue))
                    ON CONFLICT DO NOTHING
                    """)
            ]
        case .left, .removed:
            return [removal]
        case .banned:
            return [
                removal,
                SQLQueryString(
                    """
                    INSERT INTO room_restrictions (id, room_id, user_id, kind, created_by, created_at)
                    VALUES (\(bind: UUID()), \(bind: room), \(bind: member), \(bind: RoomRestriction.ban.rawValue), \(bind: event.sender.id), \(bind: event.date))
                    ON CONFLICT DO NOTHING
                    """),
            ]
        case .role:
            guard let role = RoomRole(rawValue: event.text) else { return [] }
            // A room has one owner: handing it over makes the previous one a moderator.
            let previousOwner = SQLQueryString(
                """
                UPDATE memberships SET role = \(bind: RoomRole.moderator.rawValue)
                WHERE room_id = \(bind: room) AND role = \(bind: RoomRole.owner.rawValue) AND user_id <> \(bind: member)
                """)
            let update = SQLQueryString(
                "UPDATE memberships SET role = \(bind: role.rawValue) WHERE room_id = \(bind: room) AND user_id = \(bind: member)"
            )
            return role == .owner ? [previousOwner, update] : [update]
        case .message, .edit, .delete, .reaction, .rename, .preview, .pin:
            return []
        }
    }
}

/// The one multi-row `INSERT` of a batch's events, with its text written once rather than built by SQLKit's
/// query builder, whose quoting of twenty column names per batch was 5–8 % of a `/chat` message's CPU
/// (docs/BENCHMARKS.md, "Where the time goes"). The column names are plain lower-case words, the same unquoted in
/// SQLite and PostgreSQL; the values are bound through the dialect as before.
struct MessageRowsInsert: SQLExpression {
    static let prefix = "INSERT INTO \(MessageRecord.schema) (\(MessageRecord.columns.joined(separator: ", "))"

    let rows: [[any Encodable & Sendable]]
    /// On PostgreSQL, each row's `search_vector` (``PostgresMessageSearch/vector(of:)``); `nil` on SQLite.
    let searchVectors: [String?]?

    func serialize(to serializer: inout SQLSerializer) {
        serializer.write(Self.prefix)
        serializer.write(self.searchVectors == nil ? ") VALUES " : ", search_vector) VALUES ")
        for (index, row) in self.rows.enumerated() {
            serializer.write(index == 0 ? "(" : ", (")
            for (column, value) in row.enumerated() {
                if column > 0 { serializer.write(", ") }
                serializer.write(bind: value)
            }
            if let vectors = self.searchVectors {
                serializer.write(", CAST(")
                serializer.write(bind: vectors[index])
                serializer.write(" AS tsvector)")
            }
            serializer.write(")")
        }
    }
}

/// Which search index the statements keep: SQLite's FTS5 table or PostgreSQL's `search_vector` column.
enum SearchIndexKind {
    case sqlite
    case postgres

    init(_ sql: any SQLDatabase) {
        self = sql.dialect.name == "postgresql" ? .postgres : .sqlite
    }
}
