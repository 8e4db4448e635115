import ChatCore
import Crypto
import Foundation

/// The token of an outgoing webhook event's `replyURL` (PROTOCOL.md §9.13): which bot may post in which room until
/// when, signed with the bot's webhook secret. Nothing is stored: any node checks it with the secret in the
/// database, and setting a new webhook URL (a new secret) voids every token made before.
///
/// Written `BOT.ROOM.EXPIRY.MAC`: the bot's id, the room's id in unpadded base64url, the expiry in seconds since
/// 1970, and the HMAC-SHA256 of the first three in lowercase hex.
struct BotReplyToken: Equatable {
    let bot: UUID
    let room: RoomID
    let expires: Int64

    /// How long a reply URL is good for.
    static let lifetime: Int64 = 600

    init(bot: UUID, room: RoomID, expires: Int64) {
        self.bot = bot
        self.room = room
        self.expires = expires
    }

    /// The token's parts, before its MAC is checked; `nil` when it is not a token at all.
    init?(parsing token: String) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, let bot = UUID(uuidString: String(parts[0])), let expires = Int64(parts[2]),
            let room = Self.unbase64URL(parts[1])
        else { return nil }
        self.init(bot: bot, room: RoomID(room), expires: expires)
    }

    /// The token signed with `secret`.
    func signed(with secret: String) -> String {
        let body = self.body
        return body + "." + Self.mac(body, secret)
    }

    /// Whether `token` is this one signed with `secret`, compared in constant time.
    func isSigned(_ token: String, with secret: String) -> Bool {
        let expected = Array(self.signed(with: secret).utf8)
        let given = Array(token.utf8)
        guard expected.count == given.count else { return false }
        return zip(expected, given).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

    private var body: String {
        "\(self.bot.uuidString).\(Self.base64URL(self.room.rawValue)).\(self.expires)"
    }

    private static func mac(_ body: String, _ secret: String) -> String {
        HMAC<SHA256>.authenticationCode(for: Data(body.utf8), using: SymmetricKey(data: Data(secret.utf8)))
            .map { String(format: "%02x", $0) }.joined()
    }

    private static func base64URL(_ text: String) -> String {
        Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    private static func unbase64URL(_ text: Substring) -> String? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64).flatMap { String(data: $0, encoding: .utf8) }
    }
}
