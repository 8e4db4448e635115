import ChatCore
import ChatProtocol
import Foundation

/// What administrators do to accounts (PROTOCOL.md §10), over HTTP and at the command line (`chat-server admin`):
/// list every account, make administrators, deactivate and reactivate, and read the audit log. Every change is
/// written to the audit log in the same transaction, and none may leave the server without an active administrator.
public struct Administration: Sendable {
    let accounts: any AccountStore
    let directory: any RoomDirectory
    let audit: any AuditLog
    let sessions: any LiveSessions
    /// How clients reach this server, for reset links (known once it listens).
    let publicURL: @Sendable () -> String

    public init(
        accounts: any AccountStore, directory: any RoomDirectory, audit: any AuditLog, sessions: any LiveSessions,
        publicURL: @escaping @Sendable () -> String
    ) {
        self.accounts = accounts
        self.directory = directory
        self.audit = audit
        self.sessions = sessions
        self.publicURL = publicURL
    }

    /// How long a password reset link works.
    static let resetLifetime: TimeInterval = 24 * 3600

    /// Who acts: an account signed in from an address, or the operator at the command line.
    public struct Actor: Sendable {
        public let id: UUID?
        public let name: String
        public let address: String?

        public static func account(_ account: Account, from address: String) -> Actor {
            Actor(id: account.id, name: account.username, address: address)
        }

        /// `chat-server admin`: whoever has a shell on the server.
        public static let `operator` = Actor(id: nil, name: "operator", address: nil)
    }

    static let notAdministrator = Refusal(
        kind: .notAllowed, code: .forbidden, message: "Only an administrator of this server may do that.")
    static let deactivated = Refusal(
        kind: .notAllowed, code: .accountDisabled, message: "This account was deactivated by an administrator.")
    static let lastAdministrator = Refusal(
        kind: .conflict, code: .lastAdministrator,
        message: "This is the last active administrator: make someone else one first.")

    /// Refuses everyone but an administrator.
    public func requireAdministrator(_ account: Account) throws {
        guard account.isAdministrator else { throw Self.notAdministrator }
    }

    /// Every account whose username or display name contains `query`, A–Z, a page of at most `limit` (1–200,
    /// default 50) after the username `after`.
    public func users(matching query: String, after: String?, limit: Int?) async throws -> AdminUserPage {
        let limit = limit ?? 50
        guard (1...200).contains(limit) else { throw Refusal.invalid(.invalidLimit, "limit is 1 to 200.") }
        guard query.count <= 64 else { throw Refusal.invalid(.invalidQuery, "A search is at most 64 characters.") }
        let page = try await StoreUnavailable.guarding("the accounts could not be read") {
            try await self.accounts.allAccounts(matching: query, after: after, limit: limit + 1)
        }
        let users = page.prefix(limit).map(Self.adminUser)
        return AdminUserPage(users: users, next: page.count > limit ? users.last?.profile.username : nil)
    }

    /// Applies `change` to the account `id` (or, at the command line, the account called `username`) and returns
    /// it as it is now; the audit log calls it `action` (by default the change's name). Deactivating closes the
    /// account's sockets on every node with 4003.
    public func apply(
        _ change: AdministrativeChange, to target: Target, by actor: Actor, as action: String? = nil
    ) async throws -> AdminUser {
        let account = try await self.account(target)
        let entry = AuditEntry(
            actor: actor.id, actorName: actor.name, action: action ?? Self.action(change),
            target: account.id.uuidString,
            detail: account.username, address: actor.address, date: Date())
        let applied = try await StoreUnavailable.guarding("the account could not be changed") {
            try await self.accounts.apply(change, to: account.id, audit: entry)
        }
        guard applied else { throw Self.lastAdministrator }
        if case .deactivate = change { self.sessions.closeAll(deactivated: account.id) }
        let changed = try await self.account(.id(account.id))
        return Self.adminUser(changed)
    }

    /// A one-time link that sets a new password for the account (`{publicURL}/#/reset/CODE`, 24 hours). Only the
    /// code's hash is kept.
    public func passwordReset(for target: Target, by actor: Actor) async throws -> PasswordResetLink {
        let account = try await self.account(target)
        let code = BearerToken.generate()
        let expiresAt = Date().addingTimeInterval(Self.resetLifetime)
        let entry = AuditEntry(
            actor: actor.id, actorName: actor.name, action: "password-reset", target: account.id.uuidString,
            detail: account.username, address: actor.address, date: Date())
        try await StoreUnavailable.guarding("the reset could not be stored") {
            try await self.accounts.storePasswordReset(
                hash: BearerToken.hash(code), for: account.id, expiresAt: expiresAt, audit: entry)
        }
        return PasswordResetLink(
            url: self.publicURL() + "/#/reset/" + code, code: code, expiresAt: expiresAt.milliseconds)
    }

    /// Every room by id, a page of at most `limit` (1–200, default 50) after the room `after`: kind, name, member
    /// count and last activity, never what was said.
    public func rooms(after: String?, limit: Int?) async throws -> AdminRoomPage {
        let limit = limit ?? 50
        guard (1...200).contains(limit) else { throw Refusal.invalid(.invalidLimit, "limit is 1 to 200.") }
        let listings = try await StoreUnavailable.guarding("the rooms could not be read") {
            try await self.directory.allRooms(after: after.map { RoomID($0) }, limit: limit + 1)
        }
        let rooms = listings.prefix(limit).map { listing in
            AdminRoom(
                id: listing.room.id.rawValue, kind: listing.room.kind, name: listing.room.name,
                members: listing.members, lastActivity: listing.lastActivity?.milliseconds,
                createdBy: listing.room.createdBy)
        }
        return AdminRoomPage(rooms: rooms, next: listings.count > limit ? rooms.last?.id : nil)
    }

    /// Whom a change is for.
    public enum Target: Sendable {
        case id(UUID?)
        case username(String)
    }

    /// The audit log after the entry `after`, oldest first, a page of at most `limit` (1–500, default 100).
    public func auditEntries(after: Int64?, limit: Int?) async throws -> AuditPage {
        let limit = limit ?? 100
        guard (1...500).contains(limit) else { throw Refusal.invalid(.invalidLimit, "limit is 1 to 500.") }
        let entries = try await StoreUnavailable.guarding("the audit log could not be read") {
            try await self.audit.entries(after: after, limit: limit + 1)
        }
        let page = entries.prefix(limit).compactMap { entry in
            entry.id.map {
                AuditEntryPayload(
                    id: $0, actor: entry.actor, actorName: entry.actorName, action: entry.action,
                    target: entry.target, detail: entry.detail, address: entry.address,
                    date: entry.date.milliseconds)
            }
        }
        return AuditPage(entries: page, next: entries.count > limit ? page.last?.id : nil)
    }

    /// One account as the administrators' list shows it.
    public func user(_ target: Target) async throws -> AdminUser {
        Self.adminUser(try await self.account(target))
    }

    private func account(_ target: Target) async throws -> Account {
        let found = try await StoreUnavailable.guarding("the account could not be read") { () -> Account? in
            switch target {
            case .id(let id):
                guard let id else { return nil }
                return try await self.accounts.account(id: id)
            case .username(let name):
                return try await self.accounts.account(username: name)
            }
        }
        guard let found else {
            switch target {
            case .id: throw Refusal(kind: .notFound, code: .unknownUser, message: "No such user.")
            case .username(let name): throw Refusal.unknownUser(name)
            }
        }
        return found
    }

    private static func action(_ change: AdministrativeChange) -> String {
        switch change {
        case .grantAdministrator: "grant"
        case .revokeAdministrator: "revoke"
        case .deactivate: "deactivate"
        case .reactivate: "reactivate"
        }
    }

    static func adminUser(_ account: Account) -> AdminUser {
        AdminUser(
            profile: account.profile, admin: account.isAdministrator, deactivated: account.deactivatedAt != nil,
            createdAt: account.createdAt?.milliseconds, lastSeen: account.lastSeenAt?.milliseconds)
    }
}
