import ChatCore
import FluentKit
import Foundation
import SQLKit

/// The ``ContactStore`` in the `contacts` table, with the people of my direct rooms and groups read from
/// `memberships`.
public struct FluentContactStore: ContactStore {
    private let database: any Database

    public init(database: any Database) {
        self.database = database
    }

    public func add(_ contact: UUID, to owner: UUID, at date: Date) async throws {
        try await self.sql.raw(
            """
            INSERT INTO contacts (owner_id, contact_id, created_at) VALUES (\(bind: owner), \(bind: contact), \(bind: date)) \
            ON CONFLICT DO NOTHING
            """
        ).run()
    }

    public func remove(_ contact: UUID, from owner: UUID) async throws -> Bool {
        let removed = try await self.sql.raw(
            """
            DELETE FROM contacts WHERE owner_id = \(bind: owner) AND contact_id = \(bind: contact) RETURNING contact_id
            """
        ).all()
        return !removed.isEmpty
    }

    public func contacts(of owner: UUID, limit: Int) async throws -> [(id: UUID, added: Bool)] {
        // A channel can hold the whole server and the lobby does: only direct rooms and groups make contacts.
        let rows = try await self.sql.raw(
            """
            SELECT u.id AS id, EXISTS (SELECT 1 FROM contacts c WHERE c.owner_id = \(bind: owner) AND c.contact_id = u.id) AS added
            FROM users u
            WHERE u.deactivated_at IS NULL AND u.id <> \(bind: owner) AND (
                u.id IN (SELECT contact_id FROM contacts WHERE owner_id = \(bind: owner))
                OR u.id IN (
                    SELECT theirs.user_id FROM memberships mine
                    JOIN memberships theirs ON theirs.room_id = mine.room_id
                    JOIN rooms r ON r.id = mine.room_id
                    WHERE mine.user_id = \(bind: owner) AND r.kind IN ('direct', 'group')))
            ORDER BY u.username_key LIMIT \(bind: limit)
            """
        ).all()
        return try rows.map {
            (try $0.decode(column: "id", as: UUID.self), try $0.decode(column: "added", as: Bool.self))
        }
    }

    private var sql: any SQLDatabase { self.database.requiredSQL(by: "FluentContactStore") }
}
