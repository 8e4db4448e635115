import ChatCore
import ChatProtocol
import Vapor

/// The signed-in account of a request, set by ``BearerAuthMiddleware``.
struct AuthenticatedAccount: Sendable {
    let account: Account
    let tokenHash: String
}

extension Request {
    private struct AuthenticatedAccountKey: StorageKey {
        typealias Value = AuthenticatedAccount
    }

    /// The caller; only valid on routes behind ``BearerAuthMiddleware``.
    var authenticated: AuthenticatedAccount {
        get throws {
            guard let value = self.storage[AuthenticatedAccountKey.self] else { throw APIError.unauthorized }
            return value
        }
    }

    func setAuthenticated(_ value: AuthenticatedAccount) {
        self.storage[AuthenticatedAccountKey.self] = value
    }
}

/// Requires `Authorization: Bearer <token>` with a token that exists, has not expired and was not revoked.
struct BearerAuthMiddleware: AsyncMiddleware {
    let accounts: any AccountStore

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        guard let token = request.headers.bearerAuthorization?.token else { throw APIError.unauthorized }
        let hash = BearerToken.hash(token)
        guard let userID = try await self.accounts.userID(forTokenHash: hash, now: Date()),
            let account = try await self.accounts.account(id: userID)
        else { throw APIError.unauthorized }
        request.setAuthenticated(AuthenticatedAccount(account: account, tokenHash: hash))
        return try await next.respond(to: request)
    }
}

extension Account {
    /// The public view of an account.
    var profile: UserProfile {
        UserProfile(
            id: self.id, username: self.username, displayName: self.displayName, avatarColor: self.avatarColor,
            initials: AccountRules.initials(of: self.displayName))
    }
}
