import FluentKit
import FluentSQL
import SQLKit

/// Adds what administration needs (PROTOCOL.md §10): `users.is_admin` and `users.deactivated_at`, and the
/// append-only `audit_log`. Existing accounts are neither administrators nor deactivated.
struct AddAdministration: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(UserRecord.schema).field("is_admin", .bool, .required, .sql(.default(false)))
            .update()
        try await database.schema(UserRecord.schema).field("deactivated_at", .datetime).update()
        try await database.schema(AuditRecord.schema)
            .field("id", .int64, .identifier(auto: true))
            .field("actor_id", .uuid)
            .field("actor_name", .string, .required)
            .field("action", .string, .required)
            .field("target", .string, .required)
            .field("detail", .string)
            .field("address", .string)
            .field("created_at", .datetime, .required)
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(AuditRecord.schema).delete()
        try await database.schema(UserRecord.schema).deleteField("deactivated_at").update()
        try await database.schema(UserRecord.schema).deleteField("is_admin").update()
    }
}
