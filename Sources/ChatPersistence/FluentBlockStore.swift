import ChatCore
import FluentKit
import Foundation

/// The ``BlockStore`` on a Fluent database.
public struct FluentBlockStore: BlockStore {
    private let database: any Database

    public init(database: any Database) {
        self.database = database
    }

    public func block(_ blocked: UUID, by blocker: UUID) async throws -> Bool {
        do {
            try await BlockRecord(blocker: blocker, blocked: blocked).create(on: self.database)
            return true
        } catch let error as any DatabaseError where error.isConstraintFailure {
            return false
        }
    }

    public func unblock(_ blocked: UUID, by blocker: UUID) async throws -> Bool {
        guard try await self.isBlocked(blocked, by: blocker) else { return false }
        try await self.pair(blocked, by: blocker).delete()
        return true
    }

    public func blocked(by blocker: UUID) async throws -> [UUID] {
        try await BlockRecord.query(on: self.database).filter(\.$blockerID == blocker).sort(\.$createdAt).all()
            .map(\.blockedID)
    }

    public func isBlocked(_ blocked: UUID, by blocker: UUID) async throws -> Bool {
        try await self.pair(blocked, by: blocker).first() != nil
    }

    private func pair(_ blocked: UUID, by blocker: UUID) -> QueryBuilder<BlockRecord> {
        BlockRecord.query(on: self.database).filter(\.$blockerID == blocker).filter(\.$blockedID == blocked)
    }
}
