import ChatCore
import ChatPersistence
import ChatUseCases
import DemoBot
import Foundation

/// The server's part of the demo bot (PROTOCOL.md §9.9): its account, a bot (§9.13) like anyone's, with no owner.
/// The bot itself is a client like any other (``EchoBot``, on `ChatClient`, signed in with its token); only its
/// account is made here, because `echo-bot` is a reserved name that `POST /register` and `POST /bots` refuse, so
/// nobody else can take it. The token is made at random on first start and kept, readable by the owner only, in the
/// data directory; if that file is lost, the next start makes a new one (the old one stops working). With several
/// nodes only one runs the bot (``OneNodeRun``); a node that takes it over without the file does the same.
struct DemoBotAccount: Sendable {
    let accounts: any AccountStore
    let bots: any BotStore
    let directory: any RoomDirectory
    /// The digest of a password no one knows: a bot has none.
    let unusableDigest: String
    let secretPath: String

    init(
        accounts: any AccountStore, bots: any BotStore, directory: any RoomDirectory, dataDirectory: String,
        unusableDigest: String
    ) {
        self.accounts = accounts
        self.bots = bots
        self.directory = directory
        self.unusableDigest = unusableDigest
        self.secretPath = URL(fileURLWithPath: dataDirectory).appendingPathComponent("echo-bot.secret").path
    }

    /// The bot's token: the saved one, or a new one when there is none or `renew` says the saved one was refused.
    /// A new token signs out every other session of the account.
    func token(renew: Bool) async throws -> String {
        if !renew, let saved = try? String(contentsOfFile: self.secretPath, encoding: .utf8), !saved.isEmpty {
            return saved
        }
        let token = BearerToken.generate()
        let hash = BearerToken.hash(token)
        if let account = try await self.accounts.account(username: EchoBot.username) {
            try await self.bots.replaceTokens(of: account.id, with: hash)
        } else {
            let account = Account(
                id: UUID(), username: EchoBot.username, displayName: "Echo Bot",
                avatarColor: AccountRules.defaultColor(for: EchoBot.username), passwordHash: self.unusableDigest,
                isBot: true)
            guard try await self.bots.create(account, tokenHash: hash, limit: 1) == .created else {
                throw DemoBotAccountError.appearedMeanwhile
            }
            try await self.directory.add(account.id, to: .lobby)
        }
        let saved = FileManager.default.createFile(
            atPath: self.secretPath, contents: Data(token.utf8), attributes: [.posixPermissions: 0o600])
        guard saved else { throw DemoBotAccountError.notSaved(self.secretPath) }
        return token
    }
}

enum DemoBotAccountError: Error, CustomStringConvertible {
    case appearedMeanwhile
    case notSaved(String)

    var description: String {
        switch self {
        case .appearedMeanwhile: "echo-bot's account appeared while it was being created"
        case .notSaved(let path): "echo-bot could not save its token in \(path)"
        }
    }
}

/// One node at a time runs the bot.
extension EchoBot: OneNodeService {}
