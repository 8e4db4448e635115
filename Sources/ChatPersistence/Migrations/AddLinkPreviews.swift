import FluentKit
import SQLKit

/// Adds link previews (PROTOCOL.md §9.15): `messages.preview`, a message's preview (and a `preview` event's) as JSON,
/// and `link_previews`, the previews fetched lately, shared by the nodes (``FluentLinkPreviewCache``).
struct AddLinkPreviews: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(MessageRecord.schema).field("preview", .string).update()
        let sql = database.requiredSQL(by: "AddLinkPreviews")
        // `updated_at` is milliseconds since 1970, compared the same way by both databases. A URL previewed is at
        // most ``LinkPreviews/maxURLBytes`` long.
        try await sql.raw(
            """
            CREATE TABLE link_previews (url TEXT PRIMARY KEY, pending BOOLEAN NOT NULL, preview TEXT, \
            updated_at BIGINT NOT NULL)
            """
        ).run()
        try await sql.raw("CREATE INDEX link_previews_by_age ON link_previews (updated_at)").run()
    }

    func revert(on database: any Database) async throws {
        try await database.requiredSQL(by: "AddLinkPreviews").raw("DROP TABLE link_previews").run()
        try await database.schema(MessageRecord.schema).deleteField("preview").update()
    }
}
