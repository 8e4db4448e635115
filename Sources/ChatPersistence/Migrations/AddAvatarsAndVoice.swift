import FluentKit

/// Adds pictures to accounts and rooms (PROTOCOL.md §6.5, §7.7): `avatar_id` names the attachment holding one,
/// `NULL` for the colour and initials; and voice messages' length to `attachments` (§9.3): `duration_ms`.
struct AddAvatarsAndVoice: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(UserRecord.schema).field("avatar_id", .uuid).update()
        try await database.schema(RoomRecord.schema).field("avatar_id", .uuid).update()
        try await database.schema(AttachmentRecord.schema).field("duration_ms", .int).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(AttachmentRecord.schema).deleteField("duration_ms").update()
        try await database.schema(RoomRecord.schema).deleteField("avatar_id").update()
        try await database.schema(UserRecord.schema).deleteField("avatar_id").update()
    }
}
