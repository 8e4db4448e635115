import ChatCore
import ChatProtocol
import Foundation

/// Invitations to register (PROTOCOL.md §10.4): made by administrators (and by every member with
/// `--members-may-invite`), listed, revoked. Each change is in the audit log.
public struct Invitations: Sendable {
    let store: any InvitationStore
    let access: RoomAccess
    let membersMayInvite: Bool
    /// How clients reach this server, for the links (known once it listens).
    let publicURL: @Sendable () -> String

    public init(
        store: any InvitationStore, access: RoomAccess, membersMayInvite: Bool,
        publicURL: @escaping @Sendable () -> String
    ) {
        self.store = store
        self.access = access
        self.membersMayInvite = membersMayInvite
        self.publicURL = publicURL
    }

    static let maxUses = 1...1000
    static let expiresInHours = 1...8760
    static let maxRooms = 20

    /// A new invitation by `actor`; its rooms must be ones the actor belongs to (`forbidden` otherwise).
    public func create(_ request: InvitationRequest, by actor: Administration.Actor, isAdministrator: Bool) async throws
        -> InvitationPayload
    {
        guard isAdministrator || self.membersMayInvite else { throw Administration.notAdministrator }
        if let uses = request.maxUses, !Self.maxUses.contains(uses) {
            throw Refusal.invalid(.invalidBody, "maxUses is 1 to 1000.")
        }
        if let hours = request.expiresInHours, !Self.expiresInHours.contains(hours) {
            throw Refusal.invalid(.invalidBody, "expiresInHours is 1 to 8760 (a year).")
        }
        let rooms = (request.rooms ?? []).map { RoomID($0) }
        guard rooms.count <= Self.maxRooms, Set(rooms).count == rooms.count else {
            throw Refusal.invalid(.invalidBody, "rooms names at most 20 different rooms.")
        }
        if let inviter = actor.id {
            for room in rooms where try await self.access.room(room, for: inviter).kind == .direct {
                throw Refusal.invalid(.invalidBody, "An invitation joins channels and groups, not direct rooms.")
            }
        }
        let now = Date()
        let invitation = Invitation(
            code: BearerToken.generate(), createdBy: actor.id, createdAt: now,
            expiresAt: request.expiresInHours.map { now.addingTimeInterval(Double($0) * 3600) },
            maxUses: request.maxUses, uses: 0, rooms: rooms)
        let entry = AuditEntry(
            actor: actor.id, actorName: actor.name, action: "invite", target: invitation.code,
            detail: invitation.maxUses.map { "\($0) uses" }, address: actor.address, date: now)
        try await StoreUnavailable.guarding("the invitation could not be stored") {
            try await self.store.create(invitation, audit: entry)
        }
        return self.payload(invitation)
    }

    /// Every invitation for an administrator; one's own for anyone else. Newest first.
    public func list(for account: Account) async throws -> [InvitationPayload] {
        let invitations = try await StoreUnavailable.guarding("the invitations could not be read") {
            try await self.store.invitations(createdBy: account.isAdministrator ? nil : account.id)
        }
        return invitations.map(self.payload)
    }

    /// Revokes an invitation: administrators any, others their own. Anyone else's, or none, is `not_found`.
    public func revoke(code: String, by actor: Administration.Actor, isAdministrator: Bool) async throws {
        let notFound = Refusal(kind: .notFound, code: .notFound, message: "No such invitation.")
        let invitation = try await StoreUnavailable.guarding("the invitation could not be read") {
            try await self.store.invitation(code: code)
        }
        guard let invitation, isAdministrator || (actor.id != nil && invitation.createdBy == actor.id) else {
            throw notFound
        }
        let entry = AuditEntry(
            actor: actor.id, actorName: actor.name, action: "revoke-invite", target: code, address: actor.address,
            date: Date())
        let deleted = try await StoreUnavailable.guarding("the invitation could not be revoked") {
            try await self.store.delete(code: code, audit: entry)
        }
        guard deleted else { throw notFound }
    }

    func payload(_ invitation: Invitation) -> InvitationPayload {
        InvitationPayload(
            code: invitation.code, url: self.publicURL() + "/#/invite/" + invitation.code,
            createdBy: invitation.createdBy, createdAt: invitation.createdAt.milliseconds,
            expiresAt: invitation.expiresAt?.milliseconds, maxUses: invitation.maxUses, uses: invitation.uses,
            rooms: invitation.rooms.map(\.rawValue))
    }
}
