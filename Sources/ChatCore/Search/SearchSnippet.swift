/// The part of a found message's text to show, with what matched marked (PROTOCOL.md §9.7). Made here rather than
/// by a database, from the same tokens the index holds (``SearchDocument``), so a match inside a run of Chinese is
/// marked exactly, and both databases show the same snippet.
public enum SearchSnippet {
    /// A text up to this many characters is shown whole.
    public static let wholeCharacters = 160
    /// Characters kept before the first match when the text is longer.
    static let charactersBefore = 40

    /// The snippet of `text` for `phrases` (the phrases of words; a feature's phrase never matches text).
    public static func pieces(of text: String, matching phrases: [SearchPhrase]) -> [SnippetPart] {
        let tokens = Self.positionedTokens(of: text)
        var marked: [Range<String.Index>] = []
        for phrase in phrases where !phrase.tokens.isEmpty && phrase.tokens.count <= tokens.count {
            for start in 0...(tokens.count - phrase.tokens.count) where Self.phrase(phrase, matchesAt: start, tokens) {
                marked.append(
                    tokens[start].covered.lowerBound..<tokens[start + phrase.tokens.count - 1].covered.upperBound)
            }
        }
        let matches = Self.merged(marked)
        let window = Self.window(of: text, firstMatch: matches.first?.lowerBound)
        var pieces: [SnippetPart] = []
        if window.lowerBound > text.startIndex { pieces.append(SnippetPart(text: "…", isMatch: false)) }
        var position = window.lowerBound
        for match in matches where match.upperBound > window.lowerBound && match.lowerBound < window.upperBound {
            let lower = max(match.lowerBound, window.lowerBound)
            let upper = min(match.upperBound, window.upperBound)
            if position < lower { pieces.append(SnippetPart(text: String(text[position..<lower]), isMatch: false)) }
            pieces.append(SnippetPart(text: String(text[lower..<upper]), isMatch: true))
            position = upper
        }
        if position < window.upperBound {
            pieces.append(SnippetPart(text: String(text[position..<window.upperBound]), isMatch: false))
        }
        if window.upperBound < text.endIndex { pieces.append(SnippetPart(text: "…", isMatch: false)) }
        return Self.joinedText(pieces)
    }

    /// An index token and the characters it covers: a word itself, a bigram its two characters.
    private struct PositionedToken {
        var text: String
        var covered: Range<String.Index>
    }

    private static func positionedTokens(of text: String) -> [PositionedToken] {
        var tokens: [PositionedToken] = []
        for segment in SearchText.segments(of: text) {
            switch segment.kind {
            case .word:
                let covered = segment.ranges[0].lowerBound..<segment.ranges[segment.ranges.count - 1].upperBound
                tokens.append(PositionedToken(text: segment.text, covered: covered))
            case .run:
                for index in segment.folded.indices {
                    let next = index + 1
                    if next < segment.folded.count {
                        tokens.append(
                            PositionedToken(
                                text: segment.folded[index] + segment.folded[next],
                                covered: segment.ranges[index].lowerBound..<segment.ranges[next].upperBound))
                    } else {
                        tokens.append(PositionedToken(text: segment.folded[index], covered: segment.ranges[index]))
                    }
                }
            }
        }
        return tokens
    }

    private static func phrase(_ phrase: SearchPhrase, matchesAt start: Int, _ tokens: [PositionedToken]) -> Bool {
        phrase.tokens.enumerated().allSatisfy { offset, token in
            let text = tokens[start + offset].text
            return token.isPrefix ? text.hasPrefix(token.text) : text == token.text
        }
    }

    /// The ranges in order, overlapping and touching ones as one.
    private static func merged(_ ranges: [Range<String.Index>]) -> [Range<String.Index>] {
        var merged: [Range<String.Index>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = merged.last, range.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        return merged
    }

    /// The whole text when it is short; else ``wholeCharacters`` characters from a little before the first match,
    /// starting after a space when one is near.
    private static func window(of text: String, firstMatch: String.Index?) -> Range<String.Index> {
        guard text.count > Self.wholeCharacters else { return text.startIndex..<text.endIndex }
        var start =
            firstMatch.map { text.index($0, offsetBy: -Self.charactersBefore, limitedBy: text.startIndex) }
            .flatMap { $0 } ?? text.startIndex
        if let firstMatch, start > text.startIndex,
            let space = text[start..<firstMatch].firstIndex(where: \.isWhitespace)
        {
            start = text.index(after: space)
        }
        let end = text.index(start, offsetBy: Self.wholeCharacters, limitedBy: text.endIndex) ?? text.endIndex
        return start..<end
    }

    /// Neighbouring pieces of the same kind as one.
    private static func joinedText(_ pieces: [SnippetPart]) -> [SnippetPart] {
        var joined: [SnippetPart] = []
        for piece in pieces {
            if let last = joined.last, last.isMatch == piece.isMatch {
                joined[joined.count - 1].text += piece.text
            } else {
                joined.append(piece)
            }
        }
        return joined
    }
}
