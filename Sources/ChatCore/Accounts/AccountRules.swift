import Foundation

/// What makes a username, a password and a display name acceptable.
public enum AccountRules {
    /// What a deleted account is shown as (PROTOCOL.md §10.6).
    public static let deletedDisplayName = "Deleted user"

    /// 3 to 32 characters from `A–Z a–z 0–9 _ . -`, starting with a letter or digit. Unique regardless of case.
    public static func isValidUsername(_ username: String) -> Bool {
        guard (3...32).contains(username.count), let first = username.unicodeScalars.first else { return false }
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-")
        let alphanumeric = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        return alphanumeric.contains(first) && username.unicodeScalars.allSatisfy(allowed.contains)
    }

    /// The form uniqueness and login compare: lowercased.
    public static func usernameKey(_ username: String) -> String {
        username.lowercased()
    }

    /// Names the server creates accounts for itself (the demo bot): `POST /register` refuses them, whether the bot
    /// runs or not, so nobody else can hold that account.
    public static let reservedUsernames: Set<String> = ["echo-bot"]

    public static func isReserved(_ username: String) -> Bool {
        Self.reservedUsernames.contains(Self.usernameKey(username))
    }

    /// 8 to 128 characters and at most 72 bytes of UTF-8: bcrypt reads only the first 72 bytes, so a longer
    /// password would be accepted with any ending.
    public static func isValidPassword(_ password: String) -> Bool {
        (8...128).contains(password.count) && password.utf8.count <= self.maxPasswordBytes
    }

    /// The most bytes of a password bcrypt reads.
    public static let maxPasswordBytes = 72

    /// Trimmed, 1 to 64 characters, no control characters; `nil` when it breaks the rule.
    public static func normalizedDisplayName(_ raw: String) -> String? {
        let name = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...64).contains(name.count) else { return nil }
        guard !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { return nil }
        return name
    }

    /// `#RRGGBB`, uppercased; `nil` when not of that form.
    public static func normalizedColor(_ raw: String) -> String? {
        let hex = raw.uppercased()
        guard hex.count == 7, hex.first == "#", hex.dropFirst().allSatisfy(\.isHexDigit) else { return nil }
        return hex
    }

    /// A pleasant default avatar colour, the same for a username every time.
    public static func defaultColor(for username: String) -> String {
        let palette = [
            "#E57373", "#F06292", "#BA68C8", "#7986CB", "#4FC3F7", "#4DB6AC", "#81C784", "#FFB74D", "#A1887F",
            "#90A4AE",
        ]
        let hash = self.usernameKey(username).unicodeScalars.reduce(UInt32(2_166_136_261)) {
            ($0 ^ $1.value) &* 16_777_619
        }
        return palette[Int(hash % UInt32(palette.count))]
    }

    /// Up to two letters: the first of the first two words, or the first two of a single word.
    public static func initials(of displayName: String) -> String {
        let words = displayName.split(whereSeparator: \.isWhitespace)
        let letters =
            words.count >= 2 ? [words[0].first, words[1].first].compactMap { $0 } : Array(displayName.prefix(2))
        return String(letters).uppercased()
    }
}
