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

extension UserRecord {
    /// The columns ``account(from:)`` reads, of the table `alias`: for the reads made without the model.
    static func columns(of alias: String) -> String {
        [
            "id", "username", "display_name", "avatar_color", "password_hash", "is_admin", "deactivated_at",
            "created_at", "last_seen_at", "is_bot", "bot_owner_id", "avatar_id",
        ].map { "\(alias).\($0) AS \($0)" }.joined(separator: ", ")
    }

    /// The account of a row holding ``columns(of:)``.
    static func account(from row: any EventColumns) throws -> Account {
        Account(
            id: try row.value("id", as: UUID.self), username: try row.value("username", as: String.self),
            displayName: try row.value("display_name", as: String.self),
            avatarColor: try row.value("avatar_color", as: String.self),
            passwordHash: try row.value("password_hash", as: String.self),
            isAdministrator: try row.value("is_admin", as: Bool.self),
            deactivatedAt: try row.valueIfPresent("deactivated_at", as: Date.self),
            createdAt: try row.valueIfPresent("created_at", as: Date.self),
            lastSeenAt: try row.valueIfPresent("last_seen_at", as: Date.self),
            isBot: try row.value("is_bot", as: Bool.self),
            botOwner: try row.valueIfPresent("bot_owner_id", as: UUID.self),
            avatar: try row.valueIfPresent("avatar_id", as: UUID.self))
    }
}
