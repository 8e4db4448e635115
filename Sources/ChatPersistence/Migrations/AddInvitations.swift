import FluentKit

/// Adds `invitations` (codes to register with, PROTOCOL.md §10.4) and `password_resets` (one-time reset codes an
/// administrator hands out, §10.2, kept as hashes).
struct AddInvitations: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(InvitationRecord.schema)
            .field("code", .string, .identifier(auto: false))
            .field("created_by", .uuid)
            .field("created_at", .datetime, .required)
            .field("expires_at", .datetime)
            .field("max_uses", .int)
            .field("uses", .int, .required)
            .field("rooms", .string, .required)
            .create()
        try await database.schema(PasswordResetRecord.schema)
            .field("code_hash", .string, .identifier(auto: false))
            .field("user_id", .uuid, .required)
            .field("expires_at", .datetime, .required)
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(PasswordResetRecord.schema).delete()
        try await database.schema(InvitationRecord.schema).delete()
    }
}
