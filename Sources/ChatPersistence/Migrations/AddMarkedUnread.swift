import FluentKit

/// Adds a member's mark of unread to `memberships` (PROTOCOL.md §7.5): `marked_unread`, `NULL` when not marked.
struct AddMarkedUnread: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(MembershipRecord.schema).field("marked_unread", .bool).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(MembershipRecord.schema).deleteField("marked_unread").update()
    }
}
