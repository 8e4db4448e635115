import ChatCore
import ChatProtocol
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOSSL
import Vapor

/// The demo account `echo-bot`, which answers every direct message about a second later (PROTOCOL.md §9.9), so a
/// newcomer has someone to talk to on first start.
///
/// It is a client like any other — no back door: it signs in over HTTP and talks on `/api/v1/ws`. Only its account
/// is made by the server itself, because `echo-bot` is a reserved name that `POST /register` refuses (so nobody else
/// can register the bot's account). Its password is made at random on first start and kept, readable by the owner
/// only, in the data directory; if that file is lost, the next start sets a new one.
final class EchoBot: Sendable {
    static let username = "echo-bot"
    static let replyDelay = Duration.seconds(1)

    private let baseURL: String
    private let client: any Client
    private let accounts: any AccountStore
    private let directory: any RoomDirectory
    private let hashPassword: @Sendable (String) async throws -> String
    private let eventLoops: any EventLoopGroup
    /// How the bot's socket speaks TLS to its own server, when the server speaks TLS.
    private let selfTLS: TLSConfiguration?
    private let secretPath: String
    private let logger: Logger
    private let runner = NIOLockedValueBox<Task<Void, Never>?>(nil)
    private let socket = NIOLockedValueBox<WebSocket?>(nil)
    /// Answers waiting for their delay; cancelled at ``stop()``, before the event loops stop.
    private let answers = BackgroundTasks()

    init(
        baseURL: String, client: any Client, accounts: any AccountStore, directory: any RoomDirectory,
        hashPassword: @escaping @Sendable (String) async throws -> String, eventLoops: any EventLoopGroup,
        selfTLS: TLSConfiguration?, dataDirectory: String, logger: Logger
    ) {
        self.selfTLS = selfTLS
        self.baseURL = baseURL
        self.client = client
        self.accounts = accounts
        self.directory = directory
        self.hashPassword = hashPassword
        self.eventLoops = eventLoops
        self.secretPath = URL(fileURLWithPath: dataDirectory).appendingPathComponent("echo-bot.secret").path
        self.logger = logger
    }

    func start() {
        self.runner.withLockedValue { $0 = Task { await self.run() } }
    }

    func stop() async {
        let task = self.runner.withLockedValue { $0 }
        task?.cancel()
        await self.answers.close()
        try? await self.socket.withLockedValue { $0 }?.close()
        await task?.value
    }

    /// Signs in and stays connected, reconnecting after a pause whenever the connection ends.
    private func run() async {
        var pause = Duration.seconds(1)
        while !Task.isCancelled {
            do {
                let token = try await self.signIn()
                try await self.converse(token: token)
                pause = .seconds(1)
            } catch where !Task.isCancelled {
                self.logger.warning("echo-bot: \(error)")
            } catch {}
            try? await Task.sleep(for: pause)
            pause = min(pause * 2, .seconds(30))
        }
    }

    /// A token for the bot's account, which is created first when needed. When the saved password does not open
    /// it (the secret file was lost, or someone registered the name before it was reserved), the server gives the
    /// account a new password, which also signs out every session of whoever held it, and logs in again.
    private func signIn() async throws -> String {
        if let saved = self.savedPassword(), let token = try await self.login(password: saved) {
            return token
        }
        let password = try await self.provisionAccount()
        guard let token = try await self.login(password: password) else { throw Abort(.unauthorized, reason: "echo-bot could not sign in") }
        return token
    }

    private func savedPassword() -> String? {
        guard let saved = try? String(contentsOfFile: self.secretPath, encoding: .utf8), !saved.isEmpty else { return nil }
        return saved
    }

    /// A session token, or `nil` when the password is wrong (or the account does not exist yet).
    private func login(password: String) async throws -> String? {
        let login = try await self.post("login", LoginRequest(username: Self.username, password: password))
        guard login.status == HTTPResponseStatus.ok else {
            guard login.status == HTTPResponseStatus.unauthorized else { throw Abort(login.status, reason: "echo-bot could not sign in") }
            return nil
        }
        return try login.content.decode(AuthSession.self).token
    }

    /// Creates the account, or gives the existing one a new password; saves the password and returns it.
    private func provisionAccount() async throws -> String {
        let password = BearerToken.generate()
        let hash = try await self.hashPassword(password)
        if let account = try await self.accounts.account(username: Self.username) {
            try await self.accounts.resetPassword(of: account.id, toHash: hash)
        } else {
            let account = Account(
                id: UUID(), username: Self.username, displayName: "Echo Bot",
                avatarColor: AccountRules.defaultColor(for: Self.username), passwordHash: hash)
            guard try await self.accounts.create(account) else { throw Abort(.conflict, reason: "echo-bot's account appeared meanwhile") }
            try await self.directory.add(account.id, to: .lobby)
        }
        guard FileManager.default.createFile(atPath: self.secretPath, contents: Data(password.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw Abort(.internalServerError, reason: "echo-bot could not save its password in \(self.secretPath)")
        }
        return password
    }

    private func post(_ path: String, _ body: some Encodable & Sendable) async throws -> ClientResponse {
        try await self.client.post(URI(string: self.baseURL + "/api/v1/" + path)) { request in
            try request.content.encode(body, as: .json)
        }
    }

    /// One connection: follows every direct room from where the bot last read it, answers what arrives, and marks
    /// it read, so messages sent while the bot was away are answered too, and none twice.
    private func converse(token: String) async throws {
        let (texts, incoming) = AsyncStream.makeStream(of: String.self)
        let url = self.baseURL.replacingOccurrences(of: "http", with: "ws") + "/api/v1/ws?token=" + token
        try await WebSocket.connect(to: url, configuration: .init(tlsConfiguration: self.selfTLS), on: self.eventLoops) { socket in
            self.socket.withLockedValue { $0 = socket }
            socket.onText { _, text in incoming.yield(text) }
            socket.onClose.whenComplete { _ in incoming.finish() }
        }.get()
        guard let socket = self.socket.withLockedValue({ $0 }) else { return }
        var me: UUID?
        var direct: Set<String> = []
        for await text in texts {
            switch try? ServerMessage.decode(Data(text.utf8)) {
            case .hello(let hello):
                me = hello.user.id
                let rooms = try await self.myRooms(token: token).filter { $0.roomKind == .direct }
                direct = Set(rooms.map(\.id))
                Self.send(.resume(ResumeRequest(rooms: Dictionary(uniqueKeysWithValues: rooms.map { ($0.id, $0.lastReadSeq) }))), on: socket)
            case .joined(let room):
                if room.roomKind == .direct { direct.insert(room.id) }
            case .message(let message, _):
                guard message.eventKind == .message, message.deleted != true, !message.text.isEmpty, message.sender.id != me,
                    direct.contains(message.room)
                else { continue }
                self.answer(message, on: socket)
            default:
                continue
            }
        }
    }

    /// Replies about a second later, with an id that makes a repeat harmless, and marks the message read.
    private func answer(_ message: MessagePayload, on socket: WebSocket) {
        let reply = ClientMessage.send(SendRequest(
            room: message.room, clientMsgID: "echo-\(message.room)-\(message.seq)", text: EchoReply.reply(to: message.text)))
        self.answers.run {
            guard (try? await Task.sleep(for: Self.replyDelay)) != nil else { return }
            Self.send(reply, on: socket)
            Self.send(.read(ReadRequest(room: message.room, seq: message.seq)), on: socket)
        }
    }

    private func myRooms(token: String) async throws -> [RoomSummary] {
        var headers = HTTPHeaders()
        headers.bearerAuthorization = BearerAuthorization(token: token)
        return try await self.client.get(URI(string: self.baseURL + "/api/v1/rooms"), headers: headers).content.decode([RoomSummary].self)
    }

    private static func send(_ frame: ClientMessage, on socket: WebSocket) {
        guard let json = try? JSONEncoder().encode(frame) else { return }
        socket.send(String(decoding: json, as: UTF8.self))
    }
}
