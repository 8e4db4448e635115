/// Finds the links of a message's text the server previews (PROTOCOL.md §9.15) as the web client's `linkify.js`
/// draws them: `http://` or `https://` followed by anything but white space, `<`, `>`, quotes, backticks and
/// full-width punctuation (`。`, `，`…), without the punctuation that usually ends the sentence around it (`.`, `,`,
/// `)` unless the link opened one).
public enum MessageLinks {
    /// The longest link previewed; a longer one is not.
    public static let maxBytes = 2048

    /// Whether the text may hold a link at all: a scan for `://` the path of every message can afford.
    public static func mayContainLink(_ text: String) -> Bool {
        var utf8 = text.utf8.makeIterator()
        var previous: (UInt8, UInt8) = (0, 0)
        while let byte = utf8.next() {
            if previous == (UInt8(ascii: ":"), UInt8(ascii: "/")), byte == UInt8(ascii: "/") { return true }
            previous = (previous.1, byte)
        }
        return false
    }

    /// The first `http`/`https` link of `text`, if any.
    public static func first(in text: String) -> String? {
        guard self.mayContainLink(text) else { return nil }
        var rest = Substring(text)
        while let start = Self.nextStart(in: rest) {
            let tail = rest[start...]
            let end = tail.firstIndex { $0.isWhitespace || Self.excluded.contains($0) } ?? tail.endIndex
            var link = tail[..<end]
            let trailing = link.reversed().prefix { Self.closing.contains($0) }
            if !(trailing.last == ")" && link.contains("(")) { link = link.dropLast(trailing.count) }
            let scheme = link.prefix { $0 != ":" }
            if link.count > scheme.count + 3, link.utf8.count <= Self.maxBytes { return String(link) }
            rest = tail[end...]
        }
        return nil
    }

    /// Characters a link never holds: markup, quotes, and the full-width punctuation of Chinese and Japanese, where
    /// no space separates a link from the sentence after it (`看这个https://example.com/a，好吗`).
    private static let excluded: Set<Character> = [
        "<", ">", "\"", "'", "`", "。", "，", "、", "！", "？", "；", "：", "「", "」", "『", "』", "（", "）", "【", "】",
        "《", "》",
    ]
    private static let closing: Set<Character> = [
        ".", ",", ";", ":", "!", "?", ")", "]", "}", "'", "\"", "。", "，", "！", "？", "）",
    ]

    /// Where the next `http://` or `https://` starts (either case), at a word boundary as JavaScript's `\b` sees one:
    /// the start of the text, or after anything but an ASCII letter, digit or `_` (so `看https://…` has a link).
    private static func nextStart(in text: Substring) -> Substring.Index? {
        var index = text.startIndex
        while index < text.endIndex {
            let candidate = text[index...]
            let lowered = candidate.prefix(8).lowercased()
            if lowered.hasPrefix("https://") || lowered.hasPrefix("http://") {
                let before = index == text.startIndex ? nil : text[text.index(before: index)]
                if before.map({ !($0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_")) }) ?? true { return index }
            }
            index = text.index(after: index)
        }
        return nil
    }
}
