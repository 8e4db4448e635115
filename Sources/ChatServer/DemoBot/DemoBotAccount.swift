import ChatCore
import ChatPersistence
import ChatUseCases
import DemoBot
import Foundation

/// The server's part of the demo bot (PROTOCOL.md §9.9): its account. The bot itself is a client like any other
/// (``EchoBot``, on `ChatClient`); only its account is made here, because `echo-bot` is a reserved name that
/// `POST /register` refuses, so nobody else can register it. The password is made at random on first start and
/// kept, readable by the owner only, in the data directory; if that file is lost, the next start sets a new one.
/// With several nodes only one runs the bot (``OneNodeRun``); a node that takes it over without the file sets a
/// new password the same way.
struct DemoBotAccount: Sendable {
    let accounts: any AccountStore
    let directory: any RoomDirectory
    let hashPassword: @Sendable (String) async throws -> String
    let secretPath: String

    init(
        accounts: any AccountStore, directory: any RoomDirectory, dataDirectory: String,
        hashPassword: @escaping @Sendable (String) async throws -> String
    ) {
        self.accounts = accounts
        self.directory = directory
        self.hashPassword = hashPassword
        self.secretPath = URL(fileURLWithPath: dataDirectory).appendingPathComponent("echo-bot.secret").path
    }

    /// The bot's password: the saved one, or a new one when there is none or `renew` says the saved one was
    /// refused. A new password also signs out every session of whoever held the account.
    func password(renew: Bool) async throws -> String {
        if !renew, let saved = try? String(contentsOfFile: self.secretPath, encoding: .utf8), !saved.isEmpty {
            return saved
        }
        let password = BearerToken.generate()
        let hash = try await self.hashPassword(password)
        if let account = try await self.accounts.account(username: EchoBot.username) {
            try await self.accounts.resetPassword(of: account.id, toHash: hash)
        } else {
            let account = Account(
                id: UUID(), username: EchoBot.username, displayName: "Echo Bot",
                avatarColor: AccountRules.defaultColor(for: EchoBot.username), passwordHash: hash)
            guard try await self.accounts.create(account) else { throw DemoBotAccountError.appearedMeanwhile }
            try await self.directory.add(account.id, to: .lobby)
        }
        let saved = FileManager.default.createFile(
            atPath: self.secretPath, contents: Data(password.utf8), attributes: [.posixPermissions: 0o600])
        guard saved else { throw DemoBotAccountError.notSaved(self.secretPath) }
        return password
    }
}

enum DemoBotAccountError: Error, CustomStringConvertible {
    case appearedMeanwhile
    case notSaved(String)

    var description: String {
        switch self {
        case .appearedMeanwhile: "echo-bot's account appeared while it was being created"
        case .notSaved(let path): "echo-bot could not save its password in \(path)"
        }
    }
}

/// One node at a time runs the bot.
extension EchoBot: OneNodeService {}
