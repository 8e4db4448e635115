import ChatCore
import ChatProtocol
import ChatUseCases
import Vapor

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

    /// The bearer token of this request: `Authorization: Bearer` first, then, where the endpoint allows it
    /// (a WebSocket or an `<img src>` cannot set headers), `?token=`.
    func bearerToken(allowingQuery: Bool) -> String? {
        self.headers.bearerAuthorization?.token ?? (allowingQuery ? self.query[String.self, at: "token"] : nil)
    }
}

/// Requires `Authorization: Bearer <token>` with a token that exists, has not expired and was not revoked.
struct BearerAuthMiddleware: AsyncMiddleware {
    let authenticate: Authenticate

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        guard let token = request.bearerToken(allowingQuery: false),
            let signedIn = try await self.authenticate(token: token)
        else { throw APIError.unauthorized }
        request.setAuthenticated(signedIn)
        return try await next.respond(to: request)
    }
}
