import Foundation

/// Whom a message mentions (PROTOCOL.md §9.10): accounts by `@username`, and everyone by `@all` (or `@room`).
/// Decided by the server as the message or its edit is committed, from the room's members at that moment.
public struct Mentions: Sendable, Hashable {
    /// The members named, each once, in the order first named.
    public var accounts: [UUID]
    /// Whether `@all` mentions every member.
    public var all: Bool

    public init(accounts: [UUID] = [], all: Bool = false) {
        self.accounts = accounts
        self.all = all
    }

    public static let none = Mentions()

    public var isEmpty: Bool { self.accounts.isEmpty && !self.all }
}

/// The `@` names a text holds, before anyone checks who they are: what a store resolves into ``Mentions``.
public struct MentionRequest: Sendable, Hashable {
    /// Username keys (lower-cased); a name that ends in `.`, `-` or `_` also stands without them, since a sentence's
    /// full stop may follow a name (`@ann.` names `ann.` if there is one, else `ann`).
    public var names: [String]
    /// Whether the text says `@all` or `@room`.
    public var all: Bool
    public var sender: Sender

    /// Rooms of more members than this take `@all` only from their moderators and owner.
    public static let openAllLimit = 20

    /// The names in `text`, or `nil` when it names none: `@` at the start or after a character that cannot be in a
    /// username, then a username's characters.
    public init?(text: String, sender: Sender) {
        guard text.utf8.contains(UInt8(ascii: "@")) else { return nil }
        var names: [String] = []
        var all = false
        let scalars = Array(text.unicodeScalars)
        var index = 0
        while index < scalars.count {
            defer { index += 1 }
            guard scalars[index] == "@", index == 0 || !Self.isNameCharacter(scalars[index - 1]) else { continue }
            var end = index + 1
            while end < scalars.count, Self.isNameCharacter(scalars[end]) { end += 1 }
            guard end > index + 1 else { continue }
            let name = String(String.UnicodeScalarView(scalars[(index + 1)..<end])).lowercased()
            index = end - 1
            if name == "all" || name == "room" {
                all = true
                continue
            }
            for candidate in [name, String(name.reversed().drop { ".-_".contains($0) }.reversed())]
            where !candidate.isEmpty && !names.contains(candidate) {
                names.append(candidate)
            }
        }
        guard !names.isEmpty || all else { return nil }
        self.names = names
        self.all = all
        self.sender = sender
    }

    private static func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII
            && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                || "_.-".unicodeScalars
                    .contains(scalar))
    }
}
