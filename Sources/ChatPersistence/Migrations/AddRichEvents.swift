import FluentKit
import FluentSQL
import SQLKit

/// Turns `messages` into a log of events (PROTOCOL.md §9.1) and adds what rich chat keeps beside it: reactions,
/// attachments and the rooms they were posted in, the time each user was last seen, and (on SQLite) the FTS5 index
/// that search reads.
struct AddRichEvents: AsyncMigration {
    /// Columns added to `messages`; existing rows become plain messages.
    private static let messageColumns: [(FieldKey, @Sendable (SchemaBuilder) -> SchemaBuilder)] = [
        ("kind", { $0.field("kind", .string, .required, .sql(.default("message"))) }),
        ("target_seq", { $0.field("target_seq", .int64) }),
        ("emoji", { $0.field("emoji", .string) }),
        ("added", { $0.field("added", .bool) }),
        ("reply_seq", { $0.field("reply_seq", .int64) }),
        ("reply_sender_id", { $0.field("reply_sender_id", .uuid) }),
        ("reply_sender_name", { $0.field("reply_sender_name", .string) }),
        ("reply_text", { $0.field("reply_text", .string) }),
        ("attachments", { $0.field("attachments", .string) }),
        ("edited_at", { $0.field("edited_at", .datetime) }),
        ("deleted", { $0.field("deleted", .bool, .required, .sql(.default(false))) }),
    ]

    func prepare(on database: any Database) async throws {
        // One column per statement: SQLite's ALTER TABLE adds one at a time.
        for (_, addColumn) in Self.messageColumns {
            try await addColumn(database.schema(MessageRecord.schema)).update()
        }
        try await database.schema(UserRecord.schema).field("last_seen_at", .datetime).update()
        try await database.schema(ReactionRecord.schema)
            .id()
            .field("room", .string, .required)
            .field("target_seq", .int64, .required)
            .field("user_id", .uuid, .required)
            .field("emoji", .string, .required)
            .field("created_at", .datetime, .required)
            .unique(on: "room", "target_seq", "user_id", "emoji")
            .create()
        try await database.schema(AttachmentRecord.schema)
            .id()
            .field("uploader_id", .uuid, .required)
            .field("sha256", .string, .required)
            .field("name", .string, .required)
            .field("content_type", .string, .required)
            .field("size", .int64, .required)
            .field("width", .int)
            .field("height", .int)
            .field("created_at", .datetime, .required)
            .create()
        try await database.schema(AttachmentRoomRecord.schema)
            .id()
            .field("attachment_id", .uuid, .required)
            .field("room", .string, .required)
            .unique(on: "attachment_id", "room")
            .create()
        guard let sql = database as? any SQLDatabase else { return }
        try await sql.create(index: "messages_room_target").on(MessageRecord.schema).column("room").column("target_seq")
            .run()
        try await sql.create(index: "messages_room_reply").on(MessageRecord.schema).column("room").column("reply_seq")
            .run()
        if sql.dialect.name == "sqlite" {
            for statement in SQLiteWordIndex.schema {
                try await sql.raw(SQLQueryString(statement)).run()
            }
        }
    }

    func revert(on database: any Database) async throws {
        if let sql = database.sql(ifDialect: "sqlite") {
            for statement in SQLiteWordIndex.dropSchema {
                try await sql.raw(SQLQueryString(statement)).run()
            }
        }
        try await database.schema(AttachmentRoomRecord.schema).delete()
        try await database.schema(AttachmentRecord.schema).delete()
        try await database.schema(ReactionRecord.schema).delete()
        try await database.schema(UserRecord.schema).deleteField("last_seen_at").update()
        for (name, _) in Self.messageColumns.reversed() {
            try await database.schema(MessageRecord.schema).deleteField(name).update()
        }
    }
}
