import ArgumentParser
import ChatClient
import ChatProtocol
import Foundation

/// Where to connect and as whom; every modern subcommand takes these.
struct ConnectionOptions: ParsableArguments {
    @Option(
        name: .long,
        help:
            "Server address, e.g. http://127.0.0.1:8080 (env CHAT_SERVER; default: the saved one, else http://127.0.0.1:8080)."
    )
    var server: String?

    @Option(name: [.short, .long], help: "Username (env CHAT_USERNAME).")
    var username: String?

    @Option(name: .long, help: "Password (env CHAT_PASSWORD); asked for without echo when needed.")
    var password: String?

    @Option(name: .long, help: "A session token instead of a password (env CHAT_TOKEN).")
    var token: String?

    @Option(name: .long, help: "Config file (env CHAT_CONFIG).")
    var config: String?

    @Flag(name: .long, help: "Do not save the server and session in the config file.")
    var noSave = false

    var configPath: String { CLIConfig.path(override: self.config) }

    /// The server: flag, env, config file, default.
    func address(_ saved: CLIConfig) throws -> ServerAddress {
        let environment = ProcessInfo.processInfo.environment
        let text = self.server ?? environment["CHAT_SERVER"] ?? saved.server ?? "http://127.0.0.1:8080"
        guard let address = ServerAddress(text) else { throw ValidationError("not a server address: \(text)") }
        return address
    }

    /// A signed-in client: a token (flag, env, or saved for this server and user) checked with `GET /me`, else a
    /// login with the password (flag, env, or asked). A successful login is saved unless `--no-save`.
    func signedInClient(configuration: ChatClient.Configuration = ChatClient.Configuration()) async throws -> ChatClient
    {
        let environment = ProcessInfo.processInfo.environment
        let saved = CLIConfig.load(from: self.configPath)
        let address = try self.address(saved)
        let username = self.username ?? environment["CHAT_USERNAME"]
        let sameAccount =
            saved.server.flatMap(ServerAddress.init) == address && (username == nil || username == saved.username)
        let token = self.token ?? environment["CHAT_TOKEN"] ?? (sameAccount ? saved.token : nil)
        let api = ChatAPI(server: address)
        if let token {
            do {
                let user = try await api.me(token: token)
                let session = AuthSession(token: token, expiresAt: 0, user: user)
                return ChatClient(server: address, session: session, configuration: configuration)
            } catch ChatClientError.unauthorized {
                // An expired or revoked token: fall through to a password login.
            }
        }
        guard let username = username ?? saved.username else {
            throw CLIError(
                "no session: run `chat login --username NAME` or pass --username", code: ExitCodes.authentication)
        }
        guard
            let password = self.password ?? environment["CHAT_PASSWORD"]
                ?? Terminal.readPassword(prompt: "Password for \(username): ")
        else {
            throw CLIError("no password given", code: ExitCodes.authentication)
        }
        let client = ChatClient(server: address, configuration: configuration)
        let session = try await client.login(username: username, password: password)
        if !self.noSave {
            try CLIConfig(server: address.httpBase, username: session.user.username, token: session.token).save(
                to: self.configPath)
        }
        return client
    }
}

/// Runs `body`, turning every error into a documented exit code.
func runReportingErrors(_ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch let error as ExitCode {
        throw error
    } catch let error as ValidationError {
        throw error
    } catch {
        throw ExitCodes.fail(error)
    }
}

/// Races `body` against a deadline.
func withTimeout<T: Sendable>(_ timeout: Duration, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: timeout)
            throw CLIError("timed out after \(timeout)", code: ExitCodes.timedOut)
        }
        defer { group.cancelAll() }
        return try await group.next()!
    }
}

/// Finds a room by id, by name (my rooms, then public channels), or `@user` for a direct room.
func resolveRoom(_ text: String, client: ChatClient) async throws -> RoomSummary {
    if text.hasPrefix("@") { return try await client.directRoom(with: String(text.dropFirst())) }
    let wanted = text.hasPrefix("#") ? String(text.dropFirst()) : text
    let mine = try await client.rooms()
    if let room = mine.first(where: { $0.id == wanted || $0.name.caseInsensitiveCompare(wanted) == .orderedSame }) {
        return room
    }
    let channels = try await client.publicRooms()
    if let channel = channels.first(where: { $0.id == wanted || $0.name.caseInsensitiveCompare(wanted) == .orderedSame }
    ) {
        return try await client.join(room: channel.id)
    }
    throw CLIError("no room \"\(text)\" (see `chat rooms`)", code: ExitCodes.refused)
}
