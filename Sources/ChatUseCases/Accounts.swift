import ChatCore
import ChatProtocol
import Foundation

/// Accounts (PROTOCOL.md §6): registering, signing in and out, the profile, the password, and finding people.
///
/// Everything cheap is checked before a password is hashed (bcrypt is the expensive part). Refusals are
/// ``Refusal``s; a store's failure is ``StoreUnavailable``.
public struct Accounts: Sendable {
    let store: any AccountStore
    let directory: any RoomDirectory
    let presence: Presence
    let sessions: any LiveSessions
    /// Whom people search leaves out for each account.
    let blocking: Blocking
    let hasher: any PasswordHasher
    let loginThrottle: LoginThrottle
    /// New accounts per address: `--registrations-per-hour` at once, then one more every hour / that number.
    let registrationLimiter: AttemptLimiter
    let tokenLifetime: TimeInterval
    /// Who may create an account (PROTOCOL.md §10.1).
    let registration: RegistrationMode
    /// A digest of a random password at the configured cost, verified against when the username is unknown, so
    /// the answer takes as long either way.
    let unknownUserDigest: String

    public init(
        store: any AccountStore, directory: any RoomDirectory, presence: Presence, sessions: any LiveSessions,
        blocking: Blocking, hasher: any PasswordHasher, loginThrottle: LoginThrottle,
        registrationLimiter: AttemptLimiter,
        tokenLifetime: TimeInterval, registration: RegistrationMode, unknownUserDigest: String
    ) {
        self.store = store
        self.directory = directory
        self.presence = presence
        self.sessions = sessions
        self.blocking = blocking
        self.hasher = hasher
        self.loginThrottle = loginThrottle
        self.registrationLimiter = registrationLimiter
        self.tokenLifetime = tokenLifetime
        self.registration = registration
        self.unknownUserDigest = unknownUserDigest
    }

    static let usernameTaken = Refusal(kind: .conflict, code: .usernameTaken, message: "That username is taken.")
    static let invalidPassword = Refusal.invalid(
        .invalidPassword, "A password is 8 to 128 characters and at most 72 bytes in UTF-8.")
    static let invalidInvite = Refusal.invalid(
        .invalidInvite, "This invitation is unknown, used up or expired; ask for a new one.")
    static let invalidUsername = Refusal.invalid(
        .invalidUsername,
        "A username is 3 to 32 characters from A-Z, a-z, 0-9, '_', '.', '-', starting with a letter or digit.")
    static let invalidDisplayName = Refusal.invalid(
        .invalidDisplayName, "A display name is 1 to 64 characters without control characters.")

    /// A new account, signed in, and a member of the lobby (where the tutorial clients talk). `address` is the
    /// caller's, for the registration limit.
    public func register(_ request: RegisterRequest, from address: String) async throws -> AuthSession {
        switch (self.registration, request.invite) {
        case (.closed, _):
            throw Refusal(
                kind: .notAllowed, code: .registrationClosed,
                message: "This server does not take new accounts; ask its administrator.")
        case (.invite, nil):
            throw Refusal(
                kind: .notAllowed, code: .inviteRequired,
                message: "This server takes new accounts by invitation: open the invitation link you were given.")
        default:
            break
        }
        guard AccountRules.isValidUsername(request.username) else { throw Self.invalidUsername }
        guard AccountRules.isValidPassword(request.password) else { throw Self.invalidPassword }
        var displayName = request.username
        if let raw = request.displayName {
            guard let name = AccountRules.normalizedDisplayName(raw) else { throw Self.invalidDisplayName }
            displayName = name
        }
        // The hash is computed outside the store's calls: a failure of the hasher is no database fault.
        let taken = try await StoreUnavailable.guarding("the account could not be created") {
            try await self.store.account(username: request.username) != nil
        }
        guard !AccountRules.isReserved(request.username), !taken else { throw Self.usernameTaken }
        if let wait = self.registrationLimiter.attempt([address]) {
            throw Refusal.rateLimited(.registration, "Too many new accounts from your address; try again in", wait)
        }
        let hash = try await self.hashed { try await self.hasher.hash(request.password) }
        return try await StoreUnavailable.guarding("the account could not be created") {
            let account = Account(
                id: UUID(), username: request.username, displayName: displayName,
                avatarColor: AccountRules.defaultColor(for: request.username), passwordHash: hash)
            var rooms: [RoomID] = [.lobby]
            if let code = request.invite {
                switch try await self.store.create(account, invitation: code, now: Date()) {
                case .created(let invited): rooms += invited.filter { $0 != .lobby }
                case .usernameTaken: throw Self.usernameTaken
                case .invitationInvalid: throw Self.invalidInvite
                }
            } else {
                guard try await self.store.create(account) else { throw Self.usernameTaken }
            }
            for room in rooms where try await self.directory.room(room) != nil {
                try await self.directory.add(account.id, to: room)
            }
            return try await self.session(for: account)
        }
    }

    /// A new session for the right username and password; the same ``Refusal/Kind/wrongCredentials`` for a wrong
    /// username as for a wrong password, after the same work, and 429 when tried too often (``LoginThrottle``).
    public func login(_ request: LoginRequest, from address: String) async throws -> AuthSession {
        if let wait = self.loginThrottle.attempt(username: request.username, address: address) {
            throw Refusal.rateLimited(.login, "Too many login attempts; try again in", wait)
        }
        let account = try await StoreUnavailable.guarding("the account could not be read") {
            try await self.store.account(username: request.username)
        }
        let digest = account?.passwordHash ?? self.unknownUserDigest
        let matches = try await self.hashed { try await self.hasher.verify(request.password, against: digest) }
        guard let account, matches else {
            throw Refusal(kind: .wrongCredentials, code: .invalidCredentials, message: "Wrong username or password.")
        }
        // Said only to whoever knows the password: to anyone else a deactivated account is a wrong password.
        guard account.deactivatedAt == nil else { throw Administration.deactivated }
        return try await StoreUnavailable.guarding("the session could not be stored") {
            try await self.session(for: account)
        }
    }

    /// Sets a new password with a one-time code an administrator handed out (PROTOCOL.md §10.2): every token of the
    /// account is revoked and its sockets closed, and a new session returned. Tries count against the address's
    /// login limit, as guesses would.
    public func resetPassword(_ request: PasswordResetRequest, from address: String) async throws -> AuthSession {
        guard AccountRules.isValidPassword(request.newPassword) else { throw Self.invalidPassword }
        if let wait = self.loginThrottle.attempt(username: "", address: address) {
            throw Refusal.rateLimited(.password, "Too many password attempts; try again in", wait)
        }
        let hash = try await self.hashed { try await self.hasher.hash(request.newPassword) }
        return try await StoreUnavailable.guarding("the password could not be reset") {
            let reset = try await self.store.usePasswordReset(
                hash: BearerToken.hash(request.code), now: Date(), passwordHash: hash)
            guard let id = reset, let account = try await self.store.account(id: id) else {
                throw Refusal.invalid(.invalidReset, "This reset link is unknown, used or expired; ask for a new one.")
            }
            self.sessions.closeAll(account: id)
            return try await self.session(for: account)
        }
    }

    /// The token stops working at once, and sockets opened with it are closed.
    public func logout(_ signedIn: AuthenticatedAccount) async throws {
        try await StoreUnavailable.guarding("the token could not be revoked") {
            try await self.store.revokeToken(hash: signedIn.tokenHash)
        }
        self.sessions.closeAll(tokenHash: signedIn.tokenHash)
    }

    /// Changes the display name and/or the avatar colour; the profile as it is now.
    public func updateProfile(_ update: ProfileUpdate, of account: Account) async throws -> UserProfile {
        var account = account
        if let raw = update.displayName {
            guard let name = AccountRules.normalizedDisplayName(raw) else { throw Self.invalidDisplayName }
            account.displayName = name
        }
        if let raw = update.avatarColor {
            guard let color = AccountRules.normalizedColor(raw) else {
                throw Refusal.invalid(.invalidAvatarColor, "An avatar colour is #RRGGBB.")
            }
            account.avatarColor = color
        }
        try await StoreUnavailable.guarding("the profile could not be saved") { try await self.store.update(account) }
        return account.profile
    }

    /// A new password, and a new session. Every token of the account is revoked and every socket opened with one
    /// is closed: whoever knew the old password is signed out everywhere. A wrong current password counts against
    /// the login limits, so this is no way around them.
    public func changePassword(_ change: PasswordChange, of account: Account, from address: String) async throws
        -> AuthSession
    {
        guard AccountRules.isValidPassword(change.newPassword) else { throw Self.invalidPassword }
        try await self.confirmPassword(change.password, of: account, from: address)
        let hash = try await self.hashed { try await self.hasher.hash(change.newPassword) }
        return try await StoreUnavailable.guarding("the password could not be changed") {
            try await self.store.resetPassword(of: account.id, toHash: hash)
            self.sessions.closeAll(account: account.id)
            return try await self.session(for: account)
        }
    }

    /// Refuses anything but the signed-in account's current password (401 `invalid_credentials`), before a change
    /// it cannot take back; tries count against the login limits, so this is no way around them.
    public func confirmPassword(_ password: String, of account: Account, from address: String) async throws {
        if let wait = self.loginThrottle.attempt(username: account.username, address: address) {
            throw Refusal.rateLimited(.password, "Too many password attempts; try again in", wait)
        }
        let matches = try await self.hashed { try await self.hasher.verify(password, against: account.passwordHash) }
        guard matches else {
            throw Refusal(kind: .wrongCredentials, code: .invalidCredentials, message: "The current password is wrong.")
        }
    }

    /// A digest of a password no one knows, for accounts nobody may sign in to.
    public var unusableDigest: String { self.unknownUserDigest }

    /// Up to 200 people whose username or display name contains `query` (everyone when it is empty), A–Z, but for
    /// those I blocked.
    public func find(_ query: String, for me: UUID) async throws -> [UserProfile] {
        guard query.count <= 64 else { throw Refusal.invalid(.invalidQuery, "A search is at most 64 characters.") }
        return try await StoreUnavailable.guarding("people could not be searched") {
            try await self.blocking.unblocked(try await self.store.search(query, limit: 200).map(\.profile), for: me)
        }
    }

    /// Someone's profile with presence and last seen (PROTOCOL.md §9.5); `nil` is no account.
    public func details(of id: UUID?) async throws -> UserDetails {
        let unknown = Refusal(kind: .notFound, code: .unknownUser, message: "No such user.")
        guard let id else { throw unknown }
        return try await StoreUnavailable.guarding("the profile could not be read") {
            guard let account = try await self.store.account(id: id) else { throw unknown }
            let lastSeen = try await self.store.lastSeen(id)
            return UserDetails(
                account.profile, online: await self.presence.isOnline(id), lastSeen: lastSeen?.milliseconds)
        }
    }

    /// Runs a hashing job; a full pool is a ``Refusal/Kind/busy(retryAfter:)``, not a database failure.
    private func hashed<T>(_ work: () async throws -> T) async throws -> T {
        do {
            return try await work()
        } catch is PasswordHasherBusy {
            throw Refusal(
                kind: .busy(retryAfter: 1), code: .unavailable, message: "The server is busy; try again in a second.")
        }
    }

    private func session(for account: Account) async throws -> AuthSession {
        let token = BearerToken.generate()
        let expiresAt = Date().addingTimeInterval(self.tokenLifetime)
        try await self.store.storeToken(hash: BearerToken.hash(token), userID: account.id, expiresAt: expiresAt)
        return AuthSession(
            token: token, expiresAt: Int64(expiresAt.timeIntervalSince1970 * 1000), user: account.profile)
    }
}

extension Account {
    /// The public view of an account.
    public var profile: UserProfile {
        UserProfile(
            id: self.id, username: self.username, displayName: self.displayName, avatarColor: self.avatarColor,
            initials: AccountRules.initials(of: self.displayName), admin: self.isAdministrator ? true : nil,
            bot: self.isBot ? true : nil, avatarURL: self.avatar.map(AvatarAddress.path(of:)))
    }
}

/// Who may create an account (`--registration`, PROTOCOL.md §10.1).
public enum RegistrationMode: String, Sendable, CaseIterable {
    /// Anyone.
    case open
    /// Whoever has an invitation's code.
    case invite
    /// No one.
    case closed
}
