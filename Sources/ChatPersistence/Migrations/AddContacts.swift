import FluentKit
import SQLKit

/// Adds the contacts accounts add by hand (PROTOCOL.md §6.4): `contacts`, one row per owner and person.
struct AddContacts: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("contacts")
            .field("owner_id", .uuid, .required, .references(UserRecord.schema, "id", onDelete: .cascade))
            .field("contact_id", .uuid, .required, .references(UserRecord.schema, "id", onDelete: .cascade))
            .field("created_at", .datetime, .required)
            .compositeIdentifier(over: "owner_id", "contact_id")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("contacts").delete()
    }
}
