import ChatCore
import FluentKit
import Foundation

/// A row of the `users` table. `username_key` (the lowercased username) carries the uniqueness constraint.
final class UserRecord: Model, @unchecked Sendable {
    static let schema = "users"

    @ID(key: .id) var id: UUID?
    @Field(key: "username") var username: String
    @Field(key: "username_key") var usernameKey: String
    @Field(key: "display_name") var displayName: String
    @Field(key: "avatar_color") var avatarColor: String
    @Field(key: "password_hash") var passwordHash: String
    @Timestamp(key: "created_at", on: .create) var createdAt: Date?
    @OptionalField(key: "last_seen_at") var lastSeenAt: Date?
    @Field(key: "is_admin") var isAdministrator: Bool
    @OptionalField(key: "deactivated_at") var deactivatedAt: Date?
    @Field(key: "is_bot") var isBot: Bool
    @OptionalField(key: "bot_owner_id") var botOwner: UUID?
    @OptionalField(key: "avatar_id") var avatar: UUID?

    init() {}

    init(_ account: Account) {
        self.id = account.id
        self.username = account.username
        self.usernameKey = AccountRules.usernameKey(account.username)
        self.displayName = account.displayName
        self.avatarColor = account.avatarColor
        self.passwordHash = account.passwordHash
        self.isAdministrator = account.isAdministrator
        self.deactivatedAt = account.deactivatedAt
        self.isBot = account.isBot
        self.botOwner = account.botOwner
        self.avatar = account.avatar
    }

    func account() throws -> Account {
        Account(
            id: try self.requireID(), username: self.username, displayName: self.displayName,
            avatarColor: self.avatarColor, passwordHash: self.passwordHash, isAdministrator: self.isAdministrator,
            deactivatedAt: self.deactivatedAt, createdAt: self.createdAt, lastSeenAt: self.lastSeenAt,
            isBot: self.isBot, botOwner: self.botOwner, avatar: self.avatar)
    }
}
