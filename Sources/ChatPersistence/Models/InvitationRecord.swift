import ChatCore
import FluentKit
import Foundation

/// A row of `invitations`, keyed by its code. `rooms` is a JSON array of room ids.
final class InvitationRecord: Model, @unchecked Sendable {
    static let schema = "invitations"

    @ID(custom: "code", generatedBy: .user) var id: String?
    @OptionalField(key: "created_by") var createdBy: UUID?
    @Field(key: "created_at") var createdAt: Date
    @OptionalField(key: "expires_at") var expiresAt: Date?
    @OptionalField(key: "max_uses") var maxUses: Int?
    @Field(key: "uses") var uses: Int
    @Field(key: "rooms") var rooms: String

    init() {}

    init(_ invitation: Invitation) {
        self.id = invitation.code
        self.createdBy = invitation.createdBy
        self.createdAt = invitation.createdAt
        self.expiresAt = invitation.expiresAt
        self.maxUses = invitation.maxUses
        self.uses = invitation.uses
        self.rooms = String(
            decoding: (try? JSONEncoder().encode(invitation.rooms.map(\.rawValue))) ?? Data(), as: UTF8.self)
    }

    var invitation: Invitation {
        let rooms = (try? JSONDecoder().decode([String].self, from: Data(self.rooms.utf8))) ?? []
        return Invitation(
            code: self.id ?? "", createdBy: self.createdBy, createdAt: self.createdAt, expiresAt: self.expiresAt,
            maxUses: self.maxUses, uses: self.uses, rooms: rooms.map { RoomID($0) })
    }

    /// Whether one more account may be made with it at `now`, counting the use being made.
    func admits(at now: Date) -> Bool {
        (self.maxUses.map { self.uses <= $0 } ?? true) && (self.expiresAt.map { $0 > now } ?? true)
    }
}

/// A row of `password_resets`: the SHA-256 of a one-time reset code, never the code.
final class PasswordResetRecord: Model, @unchecked Sendable {
    static let schema = "password_resets"

    @ID(custom: "code_hash", generatedBy: .user) var id: String?
    @Field(key: "user_id") var userID: UUID
    @Field(key: "expires_at") var expiresAt: Date

    init() {}

    init(codeHash: String, userID: UUID, expiresAt: Date) {
        self.id = codeHash
        self.userID = userID
        self.expiresAt = expiresAt
    }
}
