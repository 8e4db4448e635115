import Foundation

/// An invitation to register (PROTOCOL.md §10.4): a code that lets a new account be made while registration is by
/// invitation, a number of times or until a date, and that joins the new account to the rooms it names.
public struct Invitation: Sendable, Equatable {
    /// What the link carries: random, unguessable, shown to whoever may see the invitation.
    public var code: String
    /// Who made it; `nil` for the operator at the command line.
    public var createdBy: UUID?
    public var createdAt: Date
    /// `nil`: it does not expire.
    public var expiresAt: Date?
    /// `nil`: any number of accounts.
    public var maxUses: Int?
    public var uses: Int
    /// Rooms the new account joins.
    public var rooms: [RoomID]

    public init(
        code: String, createdBy: UUID?, createdAt: Date, expiresAt: Date?, maxUses: Int?, uses: Int, rooms: [RoomID]
    ) {
        self.code = code
        self.createdBy = createdBy
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.maxUses = maxUses
        self.uses = uses
        self.rooms = rooms
    }
}

/// Where invitations are kept. Each change is written with its audit entry in one transaction.
public protocol InvitationStore: Sendable {
    func create(_ invitation: Invitation, audit entry: AuditEntry) async throws
    /// Every invitation, or those `creator` made, newest first.
    func invitations(createdBy creator: UUID?) async throws -> [Invitation]
    func invitation(code: String) async throws -> Invitation?
    /// `false` when there is no such invitation.
    func delete(code: String, audit entry: AuditEntry) async throws -> Bool
}

/// What came of creating an account (``AccountStore/create(_:invitation:now:)``).
public enum AccountCreation: Sendable, Equatable {
    /// Made; with an invitation, the rooms it names.
    case created(rooms: [RoomID])
    case usernameTaken
    /// The invitation is unknown, used up or expired: nothing was made.
    case invitationInvalid
}
