/// Tokens that must stand next to each other in a message's index (``SearchDocument``), in order: a word, the
/// bigrams of a run of Chinese, or a quoted phrase. Only the last token may also match as a prefix.
public struct SearchPhrase: Sendable, Equatable {
    public struct Token: Sendable, Equatable {
        public var text: String
        public var isPrefix: Bool

        public init(_ text: String, isPrefix: Bool = false) {
            self.text = text
            self.isPrefix = isPrefix
        }
    }

    public var tokens: [Token]

    public init(_ tokens: [Token]) {
        self.tokens = tokens
    }

    /// The phrase of a feature's token (``SearchFeature``).
    public init(_ feature: SearchFeature) {
        self.tokens = [Token(feature.token)]
    }

    /// The shortest last word, in bytes of UTF-8, that also matches as a prefix: three Latin letters or digits.
    ///
    /// *Why not one or two:* a prefix that short names a large part of the vocabulary (every word that starts with
    /// `o`), which says little, and the index must gather every occurrence of all those words before it reads the
    /// first match: 184 ms for `o` on a lobby of 1,000,000 messages, against 3 ms for `ord`, whose prefixes SQLite's
    /// index keeps (BENCHMARKS.md, "How cost grows with work"). Such a word matches whole.
    public static let minimumPrefixBytes = 3

    /// The phrase that finds the segments of `text` standing together, as typed: each word whole; each run of two
    /// or more characters as its bigrams, its last character too when a segment follows it (the index has that
    /// character alone only at the end of a run); a run of one character as the start of any token, unless a
    /// segment follows it.
    ///
    /// `nil` when the text has no letter or digit.
    static func typed(_ segments: [SearchText.Segment]) -> SearchPhrase? {
        var tokens: [Token] = []
        for (position, segment) in segments.enumerated() {
            let isLast = position == segments.count - 1
            switch segment.kind {
            case .word:
                let word = segment.text
                guard word.utf8.count <= SearchDocument.maxTokenBytes else { return nil }
                tokens.append(Token(word))
            case .run:
                let characters = segment.folded
                if characters.count == 1 {
                    tokens.append(Token(characters[0], isPrefix: isLast))
                    continue
                }
                for index in 0..<(characters.count - 1) {
                    tokens.append(Token(characters[index] + characters[index + 1]))
                }
                if !isLast { tokens.append(Token(characters[characters.count - 1])) }
            }
        }
        return tokens.isEmpty ? nil : SearchPhrase(tokens)
    }

    /// This phrase, with its last token a prefix when it is a word long enough (``minimumPrefixBytes``).
    func lastWordAsPrefix(_ segments: [SearchText.Segment]) -> SearchPhrase {
        guard let last = segments.last, last.kind == .word, last.text.utf8.count >= Self.minimumPrefixBytes else {
            return self
        }
        var phrase = self
        phrase.tokens[phrase.tokens.count - 1].isPrefix = true
        return phrase
    }
}
