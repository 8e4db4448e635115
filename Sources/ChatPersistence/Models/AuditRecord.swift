import ChatCore
import FluentKit
import Foundation

/// A row of `audit_log`: one administrative or moderation action. Rows are inserted, never changed.
final class AuditRecord: Model, @unchecked Sendable {
    static let schema = "audit_log"

    @ID(custom: "id", generatedBy: .database) var id: Int64?
    @OptionalField(key: "actor_id") var actorID: UUID?
    @Field(key: "actor_name") var actorName: String
    @Field(key: "action") var action: String
    @Field(key: "target") var target: String
    @OptionalField(key: "detail") var detail: String?
    @OptionalField(key: "address") var address: String?
    @Field(key: "created_at") var createdAt: Date

    init() {}

    init(_ entry: AuditEntry) {
        self.actorID = entry.actor
        self.actorName = entry.actorName
        self.action = entry.action
        self.target = entry.target
        self.detail = entry.detail
        self.address = entry.address
        self.createdAt = entry.date
    }

    var entry: AuditEntry {
        AuditEntry(
            id: self.id, actor: self.actorID, actorName: self.actorName, action: self.action, target: self.target,
            detail: self.detail, address: self.address, date: self.createdAt)
    }
}
