import ChatCore
import ChatProtocol
import FluentKit
import Foundation
import SQLKit

/// The ``AccountStore`` on a Fluent database.
public struct FluentAccountStore: AccountStore {
    private let database: any Database
    /// The same database, for the reads written in SQL.
    private let rows: ColumnRows

    public init(database: any Database) {
        self.database = database
        self.rows = ColumnRows(database.requiredSQL(by: "FluentAccountStore"))
    }

    public func create(_ account: Account) async throws -> Bool {
        do {
            try await UserRecord(account).create(on: self.database)
            return true
        } catch let error as any DatabaseError where error.isConstraintFailure {
            return false
        }
    }

    public func create(_ account: Account, invitation code: String, now: Date) async throws -> AccountCreation {
        /// Rolls the transaction back: the invitation does not admit one more account.
        struct NotAdmitted: Error {}
        do {
            let rooms = try await self.database.writeTransaction { database in
                // The use is counted first: on PostgreSQL the write locks the row (SQLite runs the whole transaction
                // alone), so two registrations with the last use of one invitation are one after the other, and the
                // second sees it used up.
                guard let sql = database as? any SQLDatabase else { throw NotAdmitted() }
                try await sql.raw("UPDATE invitations SET uses = uses + 1 WHERE code = \(bind: code)").run()
                guard let invitation = try await InvitationRecord.find(code, on: database), invitation.admits(at: now)
                else { throw NotAdmitted() }
                try await UserRecord(account).create(on: database)
                return invitation.invitation.rooms
            }
            return .created(rooms: rooms)
        } catch is NotAdmitted {
            return .invitationInvalid
        } catch let error as any DatabaseError where error.isConstraintFailure {
            return .usernameTaken
        }
    }

    public func storePasswordReset(hash: String, for id: UUID, expiresAt: Date, audit entry: AuditEntry) async throws {
        try await self.database.writeTransaction { database in
            try await PasswordResetRecord(codeHash: hash, userID: id, expiresAt: expiresAt).create(on: database)
            try await AuditRecord(entry).create(on: database)
        }
    }

    public func usePasswordReset(hash: String, now: Date, passwordHash: String) async throws -> UUID? {
        try await self.database.writeTransaction { database in
            guard let reset = try await PasswordResetRecord.find(hash, on: database) else { return nil }
            try await reset.delete(on: database)
            guard reset.expiresAt > now else { return nil }
            try await UserRecord.query(on: database).filter(\.$id == reset.userID)
                .set(\.$passwordHash, to: passwordHash).update()
            try await TokenRecord.query(on: database).filter(\.$userID == reset.userID).delete()
            return reset.userID
        }
    }

    public func account(username: String) async throws -> Account? {
        try await UserRecord.query(on: self.database)
            .filter(\.$usernameKey == AccountRules.usernameKey(username))
            .first()?.account()
    }

    public func account(id: UUID) async throws -> Account? {
        try await UserRecord.find(id, on: self.database)?.account()
    }

    public func accounts(ids: [UUID], limit: Int) async throws -> [Account] {
        try await UserRecord.query(on: self.database)
            .filter(\.$id ~~ ids)
            .sort(\.$usernameKey)
            .limit(limit)
            .all()
            .map { try $0.account() }
    }

    public func update(_ account: Account) async throws {
        try await UserRecord.query(on: self.database)
            .filter(\.$id == account.id)
            .set(\.$displayName, to: account.displayName)
            .set(\.$avatarColor, to: account.avatarColor)
            .update()
    }

    public func resetPassword(of id: UUID, toHash hash: String) async throws {
        try await self.database.writeTransaction { database in
            try await UserRecord.query(on: database).filter(\.$id == id).set(\.$passwordHash, to: hash).update()
            try await TokenRecord.query(on: database).filter(\.$userID == id).delete()
        }
    }

    /// Accounts whose username or display name contains `query`, ignoring case (on every database: PostgreSQL's
    /// `LIKE` minds case, SQLite's does not for ASCII, so both sides are lowered).
    public func search(_ query: String, limit: Int) async throws -> [Account] {
        let needle = query.lowercased()
        let displayName = SQLBinaryExpression(
            left: SQLFunction("LOWER", args: SQLColumn("display_name")), op: SQLBinaryOperator.like,
            right: SQLBind("%" + needle + "%"))
        return try await UserRecord.query(on: self.database)
            .group(.or) { group in
                group.filter(\.$usernameKey ~~ needle).filter(.custom(displayName))
            }
            .filter(\.$deactivatedAt == nil)
            .sort(\.$usernameKey)
            .limit(limit)
            .all()
            .map { try $0.account() }
    }

    public func allAccounts(matching query: String, after: String?, limit: Int) async throws -> [Account] {
        let displayName = SQLBinaryExpression(
            left: SQLFunction("LOWER", args: SQLColumn("display_name")), op: SQLBinaryOperator.like,
            right: SQLBind("%" + query.lowercased() + "%"))
        let accounts = UserRecord.query(on: self.database)
            .group(.or) { group in
                group.filter(\.$usernameKey ~~ query.lowercased()).filter(.custom(displayName))
            }
        if let after { accounts.filter(\.$usernameKey > AccountRules.usernameKey(after)) }
        return try await accounts.sort(\.$usernameKey).limit(limit).all().map { try $0.account() }
    }

    public func anonymize(_ id: UUID, username: String, passwordHash: String) async throws -> [RoomID] {
        try await self.database.writeTransaction { database in
            try await UserRecord.query(on: database).filter(\.$id == id)
                .set(\.$username, to: username).set(\.$usernameKey, to: AccountRules.usernameKey(username))
                .set(\.$displayName, to: AccountRules.deletedDisplayName).set(\.$passwordHash, to: passwordHash)
                .set(\.$isAdministrator, to: false).set(\.$avatar, to: nil).update()
            return try await Self.leaveAllButDirectRooms(id, on: database)
        }
    }

    /// Takes the account out of every room but its direct rooms, which stay for the other person; the rooms left.
    static func leaveAllButDirectRooms(_ id: UUID, on database: any Database) async throws -> [RoomID] {
        let memberships = try await MembershipRecord.query(on: database).filter(\.$userID == id).all()
        let direct = Set(
            try await RoomRecord.query(on: database).filter(\.$id ~~ memberships.map(\.roomID))
                .filter(\.$kind == RoomKind.direct.rawValue).all().map { try $0.requireID() })
        let left = memberships.map(\.roomID).filter { !direct.contains($0) }
        try await MembershipRecord.query(on: database).filter(\.$userID == id).filter(\.$roomID ~~ left).delete()
        return left.map { RoomID($0) }
    }

    public func apply(_ change: AdministrativeChange, to id: UUID, audit entry: AuditEntry) async throws -> Bool {
        try await self.database.writeTransaction { database in
            if change.removesAnAdministrator {
                // Two administrators revoking each other at once must not both succeed: on PostgreSQL the check
                // and the change hold a lock of their own (SQLite runs the whole transaction alone).
                if let sql = database as? any SQLDatabase, sql.dialect.name == "postgresql" {
                    try await sql.raw("SELECT pg_advisory_xact_lock(\(literal: Self.administratorsLock))").run()
                }
                let others = try await UserRecord.query(on: database)
                    .filter(\.$isAdministrator == true).filter(\.$deactivatedAt == nil).filter(\.$id != id)
                    .count()
                let target = try await UserRecord.find(id, on: database)
                if others == 0, target?.isAdministrator == true, target?.deactivatedAt == nil { return false }
            }
            let update = UserRecord.query(on: database).filter(\.$id == id)
            switch change {
            case .grantAdministrator: update.set(\.$isAdministrator, to: true)
            case .revokeAdministrator: update.set(\.$isAdministrator, to: false)
            case .deactivate(let date): update.set(\.$deactivatedAt, to: date)
            case .reactivate: update.set(\.$deactivatedAt, to: nil)
            }
            try await update.update()
            if case .deactivate = change {
                try await TokenRecord.query(on: database).filter(\.$userID == id).delete()
            }
            try await AuditRecord(entry).create(on: database)
            return true
        }
    }

    /// The transaction lock of changes that may remove an administrator ("SwiftAdm").
    static let administratorsLock: Int64 = 0x5377_6966_7441_646D

    public func storeToken(hash: String, userID: UUID, expiresAt: Date) async throws {
        try await TokenRecord(tokenHash: hash, userID: userID, expiresAt: expiresAt).create(on: self.database)
    }

    /// One query, without Fluent's models: every request and connection with a token asks.
    public func grant(forTokenHash hash: String, now: Date) async throws -> TokenGrant? {
        try await self.rows.all(
            """
            SELECT \(unsafeRaw: UserRecord.columns(of: "u")), t.expires_at AS expires_at
            FROM tokens t JOIN users u ON u.id = t.user_id
            WHERE t.token_hash = \(bind: hash) AND t.expires_at > \(bind: now) LIMIT 1
            """
        ) { row in
            TokenGrant(
                account: try UserRecord.account(from: row), expiresAt: try row.value("expires_at", as: Date.self))
        }.first
    }

    public func revokeToken(hash: String) async throws {
        try await TokenRecord.query(on: self.database).filter(\.$tokenHash == hash).delete()
    }

    public func lastSeen(_ id: UUID) async throws -> Date? {
        try await UserRecord.find(id, on: self.database)?.lastSeenAt
    }

    public func setLastSeen(_ id: UUID, at date: Date) async throws {
        try await UserRecord.query(on: self.database).filter(\.$id == id).set(\.$lastSeenAt, to: date).update()
    }
}
