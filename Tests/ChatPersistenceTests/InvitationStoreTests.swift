import ChatCore
import FluentKit
import Foundation
import Testing

@testable import ChatPersistence

/// Registering with an invitation (``FluentAccountStore/create(_:invitation:now:)``) and one-time password resets,
/// on SQLite and PostgreSQL: a use is counted with the account it makes, and nothing is made when it does not admit one.
@Suite("Invitations and password resets in the store")
struct InvitationStoreTests {
    static let databases = MigratedDatabase.names

    static func account(_ name: String) -> Account {
        Account(id: UUID(), username: name, displayName: name, avatarColor: "#000000", passwordHash: "x")
    }

    static let audit = AuditEntry(
        actor: nil, actorName: "operator", action: "invite", target: "t", address: nil, date: Date())

    @Test(
        "an invitation admits its uses and no more, and none after it expires; a refused one makes nothing",
        arguments: databases)
    func uses(database name: String) async throws {
        let (database, close) = try await MigratedDatabase.open(name)
        let accounts = FluentAccountStore(database: database)
        let invitations = FluentInvitationStore(database: database)
        let now = Date()
        try await invitations.create(
            Invitation(code: "two", createdBy: nil, createdAt: now, expiresAt: nil, maxUses: 2, uses: 0, rooms: ["r1"]),
            audit: Self.audit)
        try await invitations.create(
            Invitation(
                code: "soon", createdBy: nil, createdAt: now, expiresAt: now.addingTimeInterval(60), maxUses: nil,
                uses: 0, rooms: []),
            audit: Self.audit)
        #expect(try await accounts.create(Self.account("a1"), invitation: "two", now: now) == .created(rooms: ["r1"]))
        // A taken username does not spend a use.
        #expect(try await accounts.create(Self.account("A1"), invitation: "two", now: now) == .usernameTaken)
        #expect(try await accounts.create(Self.account("a2"), invitation: "two", now: now) == .created(rooms: ["r1"]))
        #expect(try await accounts.create(Self.account("a3"), invitation: "two", now: now) == .invitationInvalid)
        #expect(try await accounts.account(username: "a3") == nil)
        #expect(try await invitations.invitation(code: "two")?.uses == 2)
        #expect(try await accounts.create(Self.account("b1"), invitation: "nope", now: now) == .invitationInvalid)
        let later = now.addingTimeInterval(120)
        #expect(try await accounts.create(Self.account("b2"), invitation: "soon", now: later) == .invitationInvalid)
        #expect(try await accounts.account(username: "b2") == nil)
        #expect(try await accounts.create(Self.account("b3"), invitation: "soon", now: now) == .created(rooms: []))
        await close()
    }

    @Test("a reset works once and not after it expires; it revokes every token", arguments: databases)
    func resets(database name: String) async throws {
        let (database, close) = try await MigratedDatabase.open(name)
        let accounts = FluentAccountStore(database: database)
        let ann = Self.account("ann")
        _ = try await accounts.create(ann)
        try await accounts.storeToken(hash: "t1", userID: ann.id, expiresAt: Date().addingTimeInterval(3600))
        let now = Date()
        try await accounts.storePasswordReset(
            hash: "r1", for: ann.id, expiresAt: now.addingTimeInterval(60), audit: Self.audit)
        try await accounts.storePasswordReset(
            hash: "r2", for: ann.id, expiresAt: now.addingTimeInterval(60), audit: Self.audit)
        #expect(try await accounts.usePasswordReset(hash: "r1", now: now, passwordHash: "new") == ann.id)
        #expect(try await accounts.account(id: ann.id)?.passwordHash == "new")
        #expect(try await accounts.grant(forTokenHash: "t1", now: now) == nil)
        #expect(try await accounts.usePasswordReset(hash: "r1", now: now, passwordHash: "again") == nil)
        #expect(
            try await accounts.usePasswordReset(hash: "r2", now: now.addingTimeInterval(120), passwordHash: "late")
                == nil)
        #expect(try await accounts.account(id: ann.id)?.passwordHash == "new")
        await close()
    }
}
