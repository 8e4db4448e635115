import FluentKit
import SQLKit

/// Indexes `memberships` by account. Its only index was the unique (`room_id`, `user_id`), so every question asked
/// from the account's side ("my rooms", "the members of my rooms" at each connection's presence snapshot, "rooms I
/// share with someone") read the whole table: 6.6 ms per connection with 21,000 memberships, growing with the
/// server (docs/BENCHMARKS.md, "growth").
struct IndexMembershipsByUser: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.requiredSQL(by: "IndexMembershipsByUser").raw(
            "CREATE INDEX memberships_by_user ON memberships (user_id, room_id)"
        ).run()
    }

    func revert(on database: any Database) async throws {
        try await database.requiredSQL(by: "IndexMembershipsByUser").raw("DROP INDEX memberships_by_user").run()
    }
}
