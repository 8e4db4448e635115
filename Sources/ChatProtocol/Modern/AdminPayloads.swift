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

/// `POST /api/v1/invites` (PROTOCOL.md §10.4): every field may be left out.
public struct InvitationRequest: Codable, Sendable, Equatable {
    /// How many accounts it may make (1–1000); absent: any number.
    public var maxUses: Int?
    /// Hours it stays valid (1–8760); absent: until it is revoked.
    public var expiresInHours: Int?
    /// Rooms the new accounts join; the inviter must be a member of each.
    public var rooms: [String]?

    public init(maxUses: Int? = nil, expiresInHours: Int? = nil, rooms: [String]? = nil) {
        self.maxUses = maxUses
        self.expiresInHours = expiresInHours
        self.rooms = rooms
    }
}

/// An invitation as its creator and the administrators see it.
public struct InvitationPayload: Codable, Sendable, Equatable {
    public var code: String
    /// `{publicURL}/#/invite/CODE`: opens registration with the code filled in.
    public var url: String
    /// Absent for an invitation made at the command line.
    public var createdBy: UUID?
    /// Milliseconds since 1970.
    public var createdAt: Int64
    public var expiresAt: Int64?
    public var maxUses: Int?
    public var uses: Int
    public var rooms: [String]

    public init(
        code: String, url: String, createdBy: UUID?, createdAt: Int64, expiresAt: Int64?, maxUses: Int?, uses: Int,
        rooms: [String]
    ) {
        self.code = code
        self.url = url
        self.createdBy = createdBy
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.maxUses = maxUses
        self.uses = uses
        self.rooms = rooms
    }
}

/// `POST /api/v1/admin/users/{id}/password-reset`: a link the administrator hands to the account's owner.
public struct PasswordResetLink: Codable, Sendable, Equatable {
    /// `{publicURL}/#/reset/CODE`, valid once, until `expiresAt`.
    public var url: String
    public var code: String
    /// Milliseconds since 1970.
    public var expiresAt: Int64

    public init(url: String, code: String, expiresAt: Int64) {
        self.url = url
        self.code = code
        self.expiresAt = expiresAt
    }
}

/// `POST /api/v1/password-reset`.
public struct PasswordResetRequest: Codable, Sendable, Equatable {
    public var code: String
    public var newPassword: String

    public init(code: String, newPassword: String) {
        self.code = code
        self.newPassword = newPassword
    }
}

/// A room as administrators see it (`GET /api/v1/admin/rooms`, PROTOCOL.md §10.5): no message content.
public struct AdminRoom: Codable, Sendable, Equatable {
    public var id: String
    public var kind: WireKind<RoomKind>
    /// A channel's or group's name; absent for a direct room.
    public var name: String?
    public var members: Int
    /// When its last event was committed, in milliseconds since 1970; absent for a room without any.
    public var lastActivity: Int64?
    public var createdBy: UUID?

    public init(
        id: String, kind: RoomKind, name: String?, members: Int, lastActivity: Int64?, createdBy: UUID?
    ) {
        self.id = id
        self.kind = .known(kind)
        self.name = name
        self.members = members
        self.lastActivity = lastActivity
        self.createdBy = createdBy
    }
}

/// One page of `GET /api/v1/admin/rooms`, by room id: `next` is the `after` of the next page, absent on the last.
public struct AdminRoomPage: Codable, Sendable, Equatable {
    public var rooms: [AdminRoom]
    public var next: String?

    public init(rooms: [AdminRoom], next: String?) {
        self.rooms = rooms
        self.next = next
    }
}

/// `DELETE /api/v1/me`: the password, to be sure.
public struct AccountDeletionRequest: Codable, Sendable, Equatable {
    public var password: String

    public init(password: String) {
        self.password = password
    }
}
