import ChatCore
import FluentKit
import Foundation

/// The ``InvitationStore`` on a Fluent database.
public struct FluentInvitationStore: InvitationStore {
    private let database: any Database

    public init(database: any Database) {
        self.database = database
    }

    public func create(_ invitation: Invitation, audit entry: AuditEntry) async throws {
        try await self.database.writeTransaction { database in
            try await InvitationRecord(invitation).create(on: database)
            try await AuditRecord(entry).create(on: database)
        }
    }

    public func invitations(createdBy creator: UUID?) async throws -> [Invitation] {
        let query = InvitationRecord.query(on: self.database)
        if let creator { query.filter(\.$createdBy == creator) }
        return try await query.sort(\.$createdAt, .descending).all().map(\.invitation)
    }

    public func invitation(code: String) async throws -> Invitation? {
        try await InvitationRecord.find(code, on: self.database)?.invitation
    }

    public func delete(code: String, audit entry: AuditEntry) async throws -> Bool {
        try await self.database.writeTransaction { database in
            guard let record = try await InvitationRecord.find(code, on: database) else { return false }
            try await record.delete(on: database)
            try await AuditRecord(entry).create(on: database)
            return true
        }
    }
}
