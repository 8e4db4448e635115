import Foundation

/// Full-text search over the messages of the rooms a user belongs to (PROTOCOL.md §9.7).
///
/// The server only knows this protocol: SQLite answers it with FTS5; a PostgreSQL store can answer the same
/// queries with `tsvector` and `ts_headline`.
public protocol MessageSearch: Sendable {
    /// The best matches for `terms` among the messages (not deleted) of the rooms `user` belongs to, or of `room`
    /// only, ranked by relevance, then newest first.
    func search(_ terms: SearchTerms, for user: UUID, in room: RoomID?, limit: Int) async throws -> [SearchMatch]
}

/// One found message and the text around the matches.
public struct SearchMatch: Sendable, Equatable {
    public var message: StoredMessage
    public var snippet: [SnippetPart]

    public init(message: StoredMessage, snippet: [SnippetPart]) {
        self.message = message
        self.snippet = snippet
    }
}

/// A piece of a snippet: matched text or the text between matches.
public struct SnippetPart: Sendable, Equatable {
    public var text: String
    public var isMatch: Bool

    public init(text: String, isMatch: Bool) {
        self.text = text
        self.isMatch = isMatch
    }

    /// Marks that a search engine puts around each match; control characters a message almost never contains.
    public static let matchStart: Character = "\u{2}"
    public static let matchEnd: Character = "\u{3}"

    /// Splits a snippet marked with ``matchStart`` and ``matchEnd`` into pieces.
    public static func pieces(of marked: String) -> [SnippetPart] {
        var parts: [SnippetPart] = []
        var current = ""
        var inMatch = false
        for character in marked {
            guard character == Self.matchStart || character == Self.matchEnd else {
                current.append(character)
                continue
            }
            if !current.isEmpty { parts.append(SnippetPart(text: current, isMatch: inMatch)) }
            current = ""
            inMatch = character == Self.matchStart
        }
        if !current.isEmpty { parts.append(SnippetPart(text: current, isMatch: inMatch)) }
        return parts
    }
}

/// What a user typed into a search box, as words to find: only letters and digits count, so quotes, `*`,
/// parentheses and operators are never interpreted, and every word is matched literally.
public struct SearchTerms: Sendable, Equatable {
    /// The words, in the order typed; the last one also matches as a prefix when it is long enough
    /// (``lastMatchesAsPrefix``).
    public let words: [String]

    /// The shortest last word, in bytes of UTF-8, that also matches as a prefix: three Latin letters or digits, or
    /// one character of a script whose words are not separated by spaces (Chinese, Japanese), where the index keeps
    /// a whole run of characters as one word and a prefix is how a word inside it is found.
    ///
    /// *Why not one or two Latin letters:* a prefix that short names a large part of the vocabulary (every word that
    /// starts with `o`), which says little, and the index must gather every occurrence of all those words before it
    /// reads the first match: 184 ms for `o` on a lobby of 1,000,000 messages, against 3 ms for `ord`, whose
    /// prefixes SQLite's index keeps (BENCHMARKS.md, "How cost grows with work"). Such a word matches whole.
    public static let minimumPrefixBytes = 3

    /// Whether the last word also matches as a prefix (`hel` finds `hello`, `你好` finds `你好吗`; `he` finds `he`
    /// only).
    public var lastMatchesAsPrefix: Bool { (self.words.last?.utf8.count ?? 0) >= Self.minimumPrefixBytes }

    /// Whether the word at `index` of ``words`` also matches as a prefix: the last one, when long enough. Both search
    /// engines build their queries from this.
    public func matchesAsPrefix(at index: Int) -> Bool {
        index == self.words.count - 1 && self.lastMatchesAsPrefix
    }

    /// The longest query accepted, in characters.
    public static let maxCharacters = 200

    /// `nil` when the text has no letter or digit, or is too long.
    public init?(_ text: String) {
        guard text.count <= Self.maxCharacters else { return nil }
        let words = text.split { !($0.isLetter || $0.isNumber) }.map(String.init)
        guard !words.isEmpty else { return nil }
        self.words = words
    }
}
