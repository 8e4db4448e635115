import Foundation

/// One administrative or moderation action, as the audit log keeps it (PROTOCOL.md §10.3).
public struct AuditEntry: Sendable, Equatable {
    /// Its place in the log, given when it is stored: entries are only ever appended.
    public var id: Int64?
    /// Who did it: an account, or `nil` for the operator at the command line (`chat-server admin`).
    public var actor: UUID?
    /// The actor's username then, or `operator` for the command line.
    public var actorName: String
    /// What was done: `deactivate`, `reactivate`, `grant`, `revoke`…
    public var action: String
    /// What it was done to: a user's id, a room's id…
    public var target: String
    /// Anything else worth keeping (the target's username).
    public var detail: String?
    /// The actor's address, for actions over HTTP.
    public var address: String?
    public var date: Date

    public init(
        id: Int64? = nil, actor: UUID?, actorName: String, action: String, target: String, detail: String? = nil,
        address: String?, date: Date
    ) {
        self.id = id
        self.actor = actor
        self.actorName = actorName
        self.action = action
        self.target = target
        self.detail = detail
        self.address = address
        self.date = date
    }
}

/// The audit log. Changes kept in the database's own tables write their entry in their own transaction (such as
/// ``AccountStore/apply(_:to:audit:)``); ``record(_:)`` is for those committed elsewhere (a room's events).
public protocol AuditLog: Sendable {
    func record(_ entry: AuditEntry) async throws
    /// Every entry after `after`, oldest first, at most `limit`.
    func entries(after: Int64?, limit: Int) async throws -> [AuditEntry]
}
