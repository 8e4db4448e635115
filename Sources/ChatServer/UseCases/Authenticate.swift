import ChatCore
import Foundation

/// The signed-in account behind a bearer token.
struct AuthenticatedAccount: Sendable {
    let account: Account
    let tokenHash: String
    /// When the token stops working; open sockets are closed then.
    let expiresAt: Date
}

/// Resolves a bearer token to its account: the one place every endpoint (HTTP, the modern socket, attachment
/// links) asks. Where a request may carry the token twice, the `Authorization` header wins over `?token=`.
struct Authenticate: Sendable {
    let accounts: any AccountStore

    /// The account, or `nil` for a token that is unknown, expired or revoked.
    func callAsFunction(token: String) async throws -> AuthenticatedAccount? {
        let hash = BearerToken.hash(token)
        guard let grant = try await self.accounts.grant(forTokenHash: hash, now: Date()),
            let account = try await self.accounts.account(id: grant.userID)
        else { return nil }
        return AuthenticatedAccount(account: account, tokenHash: hash, expiresAt: grant.expiresAt)
    }
}
