import ChatCore
import Foundation

/// The signed-in account behind a bearer token.
public struct AuthenticatedAccount: Sendable {
    public let account: Account
    public let tokenHash: String
    /// When the token stops working; open sockets are closed then.
    public let expiresAt: Date

    public init(account: Account, tokenHash: String, expiresAt: Date) {
        self.account = account
        self.tokenHash = tokenHash
        self.expiresAt = expiresAt
    }
}

/// Resolves a bearer token to its account: the one place every endpoint (HTTP, the modern socket, attachment
/// links) asks. Where a request may carry the token twice, the `Authorization` header wins over `?token=`.
public struct Authenticate: Sendable {
    public let accounts: any AccountStore

    public init(accounts: any AccountStore) {
        self.accounts = accounts
    }

    /// The account, or `nil` for a token that is unknown, expired or revoked, or an account deactivated.
    public func callAsFunction(token: String) async throws -> AuthenticatedAccount? {
        let hash = BearerToken.hash(token)
        return try await StoreUnavailable.guarding("the token could not be checked") {
            // Deactivation revokes the tokens; the account's state is checked too, for a token stored meanwhile.
            guard let grant = try await self.accounts.grant(forTokenHash: hash, now: Date()),
                grant.account.deactivatedAt == nil
            else { return nil }
            return AuthenticatedAccount(account: grant.account, tokenHash: hash, expiresAt: grant.expiresAt)
        }
    }
}
