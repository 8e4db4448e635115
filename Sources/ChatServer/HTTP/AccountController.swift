import ChatCore
import ChatProtocol
import Metrics
import Vapor

/// `/api/v1`: register, log in and out, read and change my profile, find people.
struct AccountController: Sendable {
    let accounts: any AccountStore
    let directory: any RoomDirectory
    let presence: Presence
    let sessions: any LiveSessions
    let hasher: BcryptPool
    let loginThrottle: LoginThrottle
    /// New accounts per address: `--registrations-per-hour` at once, then one more every hour / that number.
    let registrationLimiter: AttemptLimiter<ContinuousClock>
    let tokenLifetime: TimeInterval
    /// A digest of a random password at the configured cost, verified against when the username is unknown.
    let unknownUserDigest: String

    static let usernameTaken = APIError(status: .conflict, code: .usernameTaken, message: "That username is taken.")

    func register(on api: any RoutesBuilder, authenticated: any RoutesBuilder) {
        api.on(.register, use: self.register)
        api.on(.login, use: self.login)
        authenticated.on(.logout, use: self.logout)
        authenticated.on(.me, use: self.me)
        authenticated.on(.updateMe, use: self.updateMe)
        authenticated.on(.changePassword, use: self.changePassword)
        authenticated.on(.users, use: self.searchUsers)
        authenticated.on(.user, use: self.user)
    }

    /// `POST /register` → 201 with a session; 400 for a bad username, password or display name; 409 if taken;
    /// 429 when this address registered too many accounts lately.
    ///
    /// Everything cheap is checked before the password is hashed (bcrypt is the expensive part): the body, the
    /// rate limit, and whether the name is free.
    @Sendable func register(_ request: Request) async throws -> Response {
        let body = try request.content.decode(RegisterRequest.self)
        guard AccountRules.isValidUsername(body.username) else {
            throw APIError.badRequest(
                .invalidUsername,
                "A username is 3 to 32 characters from A-Z, a-z, 0-9, '_', '.', '-', starting with a letter or digit.")
        }
        guard AccountRules.isValidPassword(body.password) else {
            throw APIError.badRequest(
                .invalidPassword, "A password is 8 to 128 characters and at most 72 bytes in UTF-8.")
        }
        var displayName = body.username
        if let raw = body.displayName {
            guard let name = AccountRules.normalizedDisplayName(raw) else {
                throw APIError.badRequest(
                    .invalidDisplayName, "A display name is 1 to 64 characters without control characters.")
            }
            displayName = name
        }
        guard !AccountRules.isReserved(body.username), try await self.accounts.account(username: body.username) == nil
        else {
            throw Self.usernameTaken
        }
        if let wait = self.registrationLimiter.attempt([request.clientAddress]) {
            throw APIError.rateLimited(.registration, "Too many new accounts from your address; try again in", wait)
        }
        let hash = try await self.hashed { try await self.hasher.hash(body.password) }
        let account = Account(
            id: UUID(), username: body.username, displayName: displayName,
            avatarColor: AccountRules.defaultColor(for: body.username), passwordHash: hash)
        guard try await self.accounts.create(account) else { throw Self.usernameTaken }
        // The lobby is where the tutorial clients talk: every account starts in it.
        try await self.directory.add(account.id, to: .lobby)
        request.application.serverMetrics.registrations.increment()
        return try await self.session(for: account, status: .created)
    }

    /// `POST /login` → 200 with a session; 401 for a wrong username or password (the same answer for both);
    /// 429 with `Retry-After` when tried too often (``LoginThrottle``).
    @Sendable func login(_ request: Request) async throws -> Response {
        let body = try request.content.decode(LoginRequest.self)
        if let wait = self.loginThrottle.attempt(username: body.username, address: request.clientAddress) {
            throw APIError.rateLimited(.login, "Too many login attempts; try again in", wait)
        }
        let account = try await self.accounts.account(username: body.username)
        // Verify against a real digest even for unknown users, so the answer takes as long either way.
        let digest = account?.passwordHash ?? self.unknownUserDigest
        let matches = try await self.hashed { try await self.hasher.verify(body.password, against: digest) }
        guard let account, matches else {
            request.application.serverMetrics.loginFailures.increment()
            throw APIError(status: .unauthorized, code: .invalidCredentials, message: "Wrong username or password.")
        }
        return try await self.session(for: account, status: .ok)
    }

    /// Runs a bcrypt job; a full pool answers 503 with `Retry-After` instead of queueing without end.
    private func hashed<T>(_ work: () async throws -> T) async throws -> T {
        do {
            return try await work()
        } catch is BcryptPool.Busy {
            throw APIError(
                status: .serviceUnavailable, code: .unavailable, message: "The server is busy; try again in a second.",
                headers: ["Retry-After": "1"])
        }
    }

    /// `POST /logout` → 204; the token stops working at once, and sockets opened with it are closed.
    @Sendable func logout(_ request: Request) async throws -> HTTPStatus {
        let tokenHash = try request.authenticated.tokenHash
        try await self.accounts.revokeToken(hash: tokenHash)
        self.sessions.closeAll(tokenHash: tokenHash)
        return .noContent
    }

    /// `GET /me` → my profile.
    @Sendable func me(_ request: Request) async throws -> Response {
        .json(try request.authenticated.account.profile)
    }

    /// `PATCH /me` with `displayName` and/or `avatarColor` → the updated profile.
    @Sendable func updateMe(_ request: Request) async throws -> Response {
        let update = try request.content.decode(ProfileUpdate.self)
        var account = try request.authenticated.account
        if let raw = update.displayName {
            guard let name = AccountRules.normalizedDisplayName(raw) else {
                throw APIError.badRequest(
                    .invalidDisplayName, "A display name is 1 to 64 characters without control characters.")
            }
            account.displayName = name
        }
        if let raw = update.avatarColor {
            guard let color = AccountRules.normalizedColor(raw) else {
                throw APIError.badRequest(.invalidAvatarColor, "An avatar colour is #RRGGBB.")
            }
            account.avatarColor = color
        }
        try await self.accounts.update(account)
        return .json(account.profile)
    }

    /// `POST /me/password` `{password, newPassword}` → 200 a new session. Every token of the account is revoked and
    /// every socket opened with one is closed (4001): whoever knew the old password is signed out everywhere. A
    /// wrong current password is 401 and counts against the login limits, so this is no way around them.
    @Sendable func changePassword(_ request: Request) async throws -> Response {
        let account = try request.authenticated.account
        let body = try request.content.decode(PasswordChange.self)
        guard AccountRules.isValidPassword(body.newPassword) else {
            throw APIError.badRequest(
                .invalidPassword, "A password is 8 to 128 characters and at most 72 bytes in UTF-8.")
        }
        if let wait = self.loginThrottle.attempt(username: account.username, address: request.clientAddress) {
            throw APIError.rateLimited(.password, "Too many password attempts; try again in", wait)
        }
        let matches = try await self.hashed {
            try await self.hasher.verify(body.password, against: account.passwordHash)
        }
        guard matches else {
            throw APIError(status: .unauthorized, code: .invalidCredentials, message: "The current password is wrong.")
        }
        let hash = try await self.hashed { try await self.hasher.hash(body.newPassword) }
        try await self.accounts.resetPassword(of: account.id, toHash: hash)
        self.sessions.closeAll(account: account.id)
        return try await self.session(for: account, status: .ok)
    }

    /// `GET /users?query=` → up to 200 people whose username or display name contains the query (everyone when
    /// there is none), A–Z.
    @Sendable func searchUsers(_ request: Request) async throws -> Response {
        let query = (try? request.query.get(String.self, at: "query")) ?? ""
        guard query.count <= 64 else {
            throw APIError.badRequest(.invalidQuery, "A search is at most 64 characters.")
        }
        return .json(try await self.accounts.search(query, limit: 200).map(\.profile))
    }

    private func session(for account: Account, status: HTTPResponseStatus) async throws -> Response {
        let token = BearerToken.generate()
        let expiresAt = Date().addingTimeInterval(self.tokenLifetime)
        try await self.accounts.storeToken(hash: BearerToken.hash(token), userID: account.id, expiresAt: expiresAt)
        let session = AuthSession(
            token: token, expiresAt: Int64(expiresAt.timeIntervalSince1970 * 1000), user: account.profile)
        return .json(session, status: status)
    }

    /// `GET /users/{id}` → the profile with presence and last seen (PROTOCOL.md §9.5).
    @Sendable func user(_ request: Request) async throws -> Response {
        guard let id = request.parameters.get("id").flatMap(UUID.init(uuidString:)),
            let account = try await self.accounts.account(id: id)
        else {
            throw APIError(status: .notFound, code: .unknownUser, message: "No such user.")
        }
        let lastSeen = try await self.accounts.lastSeen(id)
        return .json(
            UserDetails(account.profile, online: await self.presence.isOnline(id), lastSeen: lastSeen?.milliseconds))
    }
}
