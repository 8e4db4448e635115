import FluentKit

/// Adds what a member keeps for themselves in a room to `memberships` (PROTOCOL.md §7): `pinned_at` and `draft`.
struct AddPinsAndDrafts: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(MembershipRecord.schema).field("pinned_at", .datetime).update()
        try await database.schema(MembershipRecord.schema).field("draft", .string).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(MembershipRecord.schema).deleteField("draft").update()
        try await database.schema(MembershipRecord.schema).deleteField("pinned_at").update()
    }
}
