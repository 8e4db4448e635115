import FluentKit
import Foundation

/// A row of the `tokens` table: the SHA-256 of a bearer token, never the token.
final class TokenRecord: Model, @unchecked Sendable {
    static let schema = "tokens"

    @ID(key: .id) var id: UUID?
    @Field(key: "token_hash") var tokenHash: String
    @Field(key: "user_id") var userID: UUID
    @Field(key: "expires_at") var expiresAt: Date
    @Timestamp(key: "created_at", on: .create) var createdAt: Date?

    init() {}

    init(tokenHash: String, userID: UUID, expiresAt: Date) {
        self.tokenHash = tokenHash
        self.userID = userID
        self.expiresAt = expiresAt
    }
}
