import ChatCore
import FluentKit

/// The ``AuditLog`` on a Fluent database; its entries are written with the changes they record
/// (``FluentAccountStore/apply(_:to:audit:)``).
public struct FluentAuditLog: AuditLog {
    private let database: any Database

    public init(database: any Database) {
        self.database = database
    }

    public func record(_ entry: AuditEntry) async throws {
        try await AuditRecord(entry).create(on: self.database)
    }

    public func entries(after: Int64?, limit: Int) async throws -> [AuditEntry] {
        let query = AuditRecord.query(on: self.database)
        if let after { query.filter(\.$id > after) }
        return try await query.sort(\.$id).limit(limit).all().map(\.entry)
    }
}
