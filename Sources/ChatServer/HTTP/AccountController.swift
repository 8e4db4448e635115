import ChatCore
import ChatProtocol
import ChatUseCases
import Metrics
import Vapor

/// `/api/v1`: register, log in and out, read and change my profile, find people. The rules are the ``Accounts``
/// use case's; this maps HTTP onto it and counts what the metrics show.
struct AccountController: Sendable {
    let accounts: Accounts
    let export: ExportAccount
    let blocking: Blocking
    let deletion: AccountDeletion

    func register(on api: any RoutesBuilder, authenticated: any RoutesBuilder) {
        api.on(.register, use: self.register)
        api.on(.login, use: self.login)
        api.on(.passwordReset, use: self.resetPassword)
        authenticated.on(.logout, use: self.logout)
        authenticated.on(.me, use: self.me)
        authenticated.on(.updateMe, use: self.updateMe)
        authenticated.on(.changePassword, use: self.changePassword)
        authenticated.on(.export, use: self.exportAccount)
        authenticated.on(.deleteMe, use: self.deleteMe)
        authenticated.on(.blocks, use: self.blocks)
        authenticated.on(.block, use: self.block)
        authenticated.on(.unblock, use: self.unblock)
        authenticated.on(.users, use: self.searchUsers)
        authenticated.on(.user, use: self.user)
    }

    /// `POST /register` → 201 with a session; 400 for a bad username, password or display name; 409 if taken;
    /// 429 when this address registered too many accounts lately.
    @Sendable func register(_ request: Request) async throws -> Response {
        let body = try request.content.decode(RegisterRequest.self)
        let session = try await self.accounts.register(body, from: request.clientAddress)
        request.application.serverMetrics.registrations.increment()
        return .json(session, status: .created)
    }

    /// `POST /login` → 200 with a session; 401 for a wrong username or password (the same answer for both);
    /// 429 with `Retry-After` when tried too often.
    @Sendable func login(_ request: Request) async throws -> Response {
        let body = try request.content.decode(LoginRequest.self)
        do {
            return .json(try await self.accounts.login(body, from: request.clientAddress))
        } catch let refusal as Refusal where refusal.kind == .wrongCredentials {
            request.application.serverMetrics.loginFailures.increment()
            throw refusal
        }
    }

    /// `POST /password-reset` `{code, newPassword}` → 200 a new session; 400 `invalid_reset` for a code that is
    /// unknown, used or expired.
    @Sendable func resetPassword(_ request: Request) async throws -> Response {
        let body = try request.content.decode(PasswordResetRequest.self)
        return .json(try await self.accounts.resetPassword(body, from: request.clientAddress))
    }

    /// `POST /logout` → 204; the token stops working at once, and sockets opened with it are closed.
    @Sendable func logout(_ request: Request) async throws -> HTTPStatus {
        try await self.accounts.logout(try request.authenticated)
        return .noContent
    }

    /// `GET /me` → my profile.
    @Sendable func me(_ request: Request) async throws -> Response {
        .json(try request.authenticated.account.profile)
    }

    /// `PATCH /me` with `displayName` and/or `avatarColor` → the updated profile.
    @Sendable func updateMe(_ request: Request) async throws -> Response {
        let update = try request.content.decode(ProfileUpdate.self)
        return .json(try await self.accounts.updateProfile(update, of: try request.authenticated.account))
    }

    /// `POST /me/password` `{password, newPassword}` → 200 a new session; every other session of the account ends
    /// (4001 on its sockets). A wrong current password is 401.
    @Sendable func changePassword(_ request: Request) async throws -> Response {
        let account = try request.authenticated.account
        let body = try request.content.decode(PasswordChange.self)
        return .json(try await self.accounts.changePassword(body, of: account, from: request.clientAddress))
    }

    /// `GET /me/export` → my profile, rooms and messages as one JSON download, streamed a page at a time.
    @Sendable func exportAccount(_ request: Request) async throws -> Response {
        let account = try request.authenticated.account
        let export = try await self.export.begin(account)
        let response = Response(status: .ok)
        response.headers.contentType = .json
        response.headers.replaceOrAdd(
            name: .contentDisposition, value: "attachment; filename=\"swiftchat-\(account.username).json\"")
        response.headers.replaceOrAdd(name: .cacheControl, value: "no-store")
        response.body = Response.Body(asyncStream: { writer in
            do {
                try await export.write { try await writer.write(.buffer(ByteBuffer(bytes: $0))) }
                try await writer.write(.end)
            } catch {
                request.logger.warning("the export of \(account.username) ended early: \(String(reflecting: error))")
                try? await writer.write(.error(error))
            }
        })
        return response
    }

    /// `DELETE /me` `{password}` → 204: the account is deleted (PROTOCOL.md §10.6); 401 for a wrong password.
    @Sendable func deleteMe(_ request: Request) async throws -> HTTPStatus {
        let account = try request.authenticated.account
        let body = try request.content.decode(AccountDeletionRequest.self)
        try await self.accounts.confirmPassword(body.password, of: account, from: request.clientAddress)
        try await self.deletion.delete(.id(account.id), by: .account(account, from: request.clientAddress))
        return .noContent
    }

    /// `GET /me/blocks` → the profiles of the accounts I blocked.
    @Sendable func blocks(_ request: Request) async throws -> Response {
        .json(try await self.blocking.blocked(by: try request.authenticated.account))
    }

    /// `PUT /me/blocks/{id}` → 204; it leaves our direct room and my people search.
    @Sendable func block(_ request: Request) async throws -> HTTPStatus {
        try await self.blocking.block(
            request.parameters.get("id").flatMap(UUID.init(uuidString:)), by: try request.authenticated.account)
        return .noContent
    }

    /// `DELETE /me/blocks/{id}` → 204; it is back in our direct room.
    @Sendable func unblock(_ request: Request) async throws -> HTTPStatus {
        try await self.blocking.unblock(
            request.parameters.get("id").flatMap(UUID.init(uuidString:)), by: try request.authenticated.account)
        return .noContent
    }

    /// `GET /users?query=` → up to 200 people whose username or display name contains the query, A–Z.
    @Sendable func searchUsers(_ request: Request) async throws -> Response {
        let query = (try? request.query.get(String.self, at: "query")) ?? ""
        return .json(try await self.accounts.find(query, for: try request.authenticated.account.id))
    }

    /// `GET /users/{id}` → the profile with presence and last seen (PROTOCOL.md §9.5).
    @Sendable func user(_ request: Request) async throws -> Response {
        .json(try await self.accounts.details(of: request.parameters.get("id").flatMap(UUID.init(uuidString:))))
    }
}
