import Foundation

/// An account as administrators see it (`GET /api/v1/admin/users`, PROTOCOL.md §10.2).
public struct AdminUser: Codable, Sendable, Equatable {
    public var profile: UserProfile
    public var admin: Bool
    public var deactivated: Bool
    /// Milliseconds since 1970.
    public var createdAt: Int64?
    /// When the account was last connected, in milliseconds since 1970; `nil` if never (or online now).
    public var lastSeen: Int64?

    public init(profile: UserProfile, admin: Bool, deactivated: Bool, createdAt: Int64?, lastSeen: Int64?) {
        self.profile = profile
        self.admin = admin
        self.deactivated = deactivated
        self.createdAt = createdAt
        self.lastSeen = lastSeen
    }
}

/// One page of `GET /api/v1/admin/users`: `next` is the `after` of the next page, `nil` on the last.
public struct AdminUserPage: Codable, Sendable, Equatable {
    public var users: [AdminUser]
    public var next: String?

    public init(users: [AdminUser], next: String?) {
        self.users = users
        self.next = next
    }
}

/// One row of the audit log (`GET /api/v1/admin/audit`, PROTOCOL.md §10.3).
public struct AuditEntryPayload: Codable, Sendable, Equatable {
    public var id: Int64
    /// The acting account; absent for the operator at the command line.
    public var actor: UUID?
    public var actorName: String
    public var action: String
    public var target: String
    public var detail: String?
    public var address: String?
    /// Milliseconds since 1970.
    public var date: Int64

    public init(
        id: Int64, actor: UUID?, actorName: String, action: String, target: String, detail: String?,
        address: String?, date: Int64
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

/// One page of the audit log, oldest first: `next` is the `after` of the next page, `nil` on the last.
public struct AuditPage: Codable, Sendable, Equatable {
    public var entries: [AuditEntryPayload]
    public var next: Int64?

    public init(entries: [AuditEntryPayload], next: Int64?) {
        self.entries = entries
        self.next = next
    }
}
