import Foundation

/// What the search index holds for a message (PROTOCOL.md §9.7): its text as tokens, then a token for each thing a
/// filter asks about (sender, link, mentions). Both databases index exactly these tokens, so they find the same
/// messages.
///
/// A word is one token. A run of a script written without spaces gives one token per character: the character and
/// the next one (a bigram), or the last character alone. Any two or more characters of the run are then found as
/// consecutive bigrams (a phrase), and a single character as any token it starts; the positions stay one per
/// character, so a phrase can cross from a run to the next word.
public enum SearchDocument {
    /// The longest token indexed, in bytes of UTF-8: a longer "word" (a pasted key, a long URL's path) is not
    /// findable, on either database (PostgreSQL refuses lexemes over 2 KiB).
    public static let maxTokenBytes = 255

    /// The tokens of a message, text first, in position order.
    public static func tokens(text: String, sender: UUID, mentions: Mentions) -> [String] {
        var tokens = Self.textTokens(SearchText.segments(of: text))
        tokens.append(SearchFeature.sender(sender).token)
        if Self.hasLink(text) { tokens.append(SearchFeature.link.token) }
        if mentions.all {
            tokens.append(SearchFeature.mentionOfAll.token)
        } else {
            tokens += mentions.accounts.map { SearchFeature.mention($0).token }
        }
        return tokens
    }

    /// The tokens of text segments: each word, and for each character of a run its bigram or, last, itself.
    static func textTokens(_ segments: [SearchText.Segment]) -> [String] {
        var tokens: [String] = []
        for segment in segments {
            switch segment.kind {
            case .word:
                let word = segment.text
                if word.utf8.count <= Self.maxTokenBytes { tokens.append(word) }
            case .run:
                let characters = segment.folded
                for index in characters.indices {
                    let next = characters.index(after: index)
                    tokens.append(next < characters.endIndex ? characters[index] + characters[next] : characters[index])
                }
            }
        }
        return tokens
    }

    /// Whether the text holds a web link.
    static func hasLink(_ text: String) -> Bool {
        text.range(of: "http://", options: .caseInsensitive) != nil
            || text.range(of: "https://", options: .caseInsensitive) != nil
    }

    /// The tokens separated by spaces: what SQLite's FTS5 index reads with its `ascii` tokenizer, which splits on
    /// ASCII punctuation and spaces only (a token holds letters, digits and marks, or a feature's `⁂`).
    public static func spaced(_ tokens: [String]) -> String {
        tokens.joined(separator: " ")
    }

    /// PostgreSQL's highest position in a `tsvector`; later tokens share it.
    static let maxPosition = 16383

    /// The tokens as a PostgreSQL `tsvector` literal, each with its positions (from 1), cast by the statement.
    public static func tsvector(_ tokens: [String]) -> String {
        var positions: [String: [Int]] = [:]
        var order: [String] = []
        for (offset, token) in tokens.enumerated() {
            if positions[token] == nil { order.append(token) }
            positions[token, default: []].append(min(offset + 1, Self.maxPosition))
        }
        return order.map { token in
            Self.quotedLexeme(token) + ":" + positions[token, default: []].map(String.init).joined(separator: ",")
        }.joined(separator: " ")
    }

    /// A lexeme in quotes, as `tsvector` and `tsquery` literals write one.
    public static func quotedLexeme(_ token: String) -> String {
        "'" + token.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "''") + "'"
    }
}

/// What a filter looks for in the index, as a token no text can produce: text tokens hold only letters, digits and
/// marks, and these start with `⁂`.
public enum SearchFeature: Sendable, Hashable {
    case sender(UUID)
    case link
    case mention(UUID)
    case mentionOfAll

    public var token: String {
        switch self {
        case .sender(let id): "⁂f" + Self.hex(id)
        case .link: "⁂link"
        case .mention(let id): "⁂m" + Self.hex(id)
        case .mentionOfAll: "⁂all"
        }
    }

    /// An id as 32 lower-case hexadecimal digits, whichever way a database kept it.
    private static func hex(_ id: UUID) -> String {
        id.uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    }
}
