import Foundation

/// How search reads a text (PROTOCOL.md §9.7): the same cutting for what is stored and for what is asked, on every
/// database, so SQLite and PostgreSQL find the same messages.
///
/// A text is cut into **segments**: a *word* is a run of letters and digits of a script written with spaces between
/// words (Latin, Greek, Cyrillic, Arabic…); a *run* is a run of letters and digits of a script written without them
/// (Chinese, Japanese, Korean, Thai, Lao, Khmer, Myanmar), where a word can start at any character. Everything else
/// (spaces, punctuation, emoji) separates segments. Each character of a word is folded: lower case, Latin, Greek and
/// Cyrillic letters without their diacritics (`É` → `e`), full-width Latin letters and digits as ASCII.
public enum SearchText {
    public enum SegmentKind: Sendable, Equatable {
        case word
        case run
    }

    /// A segment and, for each of its characters, its folded form and where it is in the text.
    public struct Segment: Sendable, Equatable {
        public var kind: SegmentKind
        public var folded: [String]
        public var ranges: [Range<String.Index>]

        /// The folded characters as one string.
        public var text: String { self.folded.joined() }
    }

    /// The segments of `text`, in order.
    public static func segments(of text: String) -> [Segment] {
        var segments: [Segment] = []
        var current: Segment?
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(after: index)
            let character = text[index]
            if let kind = Self.kind(of: character) {
                if current?.kind != kind {
                    if let finished = current { segments.append(finished) }
                    current = Segment(kind: kind, folded: [], ranges: [])
                }
                // A run's characters have no case and keep their marks: only words are folded.
                current?.folded.append(kind == .run ? String(character) : Self.fold(character))
                current?.ranges.append(index..<next)
            } else if let finished = current {
                segments.append(finished)
                current = nil
            }
            index = next
        }
        if let finished = current { segments.append(finished) }
        return segments
    }

    /// Whether a character belongs to a word, to a run, or to neither.
    static func kind(of character: Character) -> SegmentKind? {
        guard character.isLetter || character.isNumber else { return nil }
        guard let first = character.unicodeScalars.first else { return nil }
        return Self.isUnspaced(first) ? .run : .word
    }

    /// The blocks of the scripts written without spaces between words.
    private static let unspacedBlocks: [ClosedRange<UInt32>] = [
        0x0E00...0x0EFF,  // Thai, Lao
        0x1000...0x109F,  // Myanmar
        0x1100...0x11FF,  // Hangul Jamo
        0x1780...0x17FF,  // Khmer
        0x2E80...0x2FDF,  // CJK radicals
        0x3005...0x3007,  // 々 〆 〇
        0x3021...0x3029,  // Hangzhou numerals
        0x3031...0x3035,  // kana repeat marks
        0x3040...0x31FF,  // Hiragana, Katakana, Bopomofo, Hangul compatibility Jamo, Katakana extensions
        0x3400...0x4DBF,  // CJK extension A
        0x4E00...0x9FFF,  // CJK unified ideographs
        0xA960...0xA97F,  // Hangul Jamo extended A
        0xAC00...0xD7FF,  // Hangul syllables, Jamo extended B
        0xF900...0xFAFF,  // CJK compatibility ideographs
        0xFF66...0xFFDC,  // half-width Katakana and Hangul
        0x20000...0x3FFFF,  // CJK extensions B onwards
    ]

    static func isUnspaced(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        guard value >= 0x0E00 else { return false }
        return Self.unspacedBlocks.contains { $0.contains(value) }
    }

    /// A character as search compares it.
    static func fold(_ character: Character) -> String {
        if let ascii = character.asciiValue {
            return String(UnicodeScalar((65...90).contains(ascii) ? ascii + 32 : ascii))
        }
        let scalars = character.unicodeScalars
        if scalars.count == 1, let only = scalars.first, (0xFF01...0xFF5E).contains(only.value),
            let ascii = Unicode.Scalar(only.value - 0xFEE0)
        {
            return Self.fold(Character(ascii))
        }
        let lower = String(character).lowercased()
        guard let base = lower.unicodeScalars.first, Self.foldsDiacritics(base) else { return lower }
        let bare = lower.decomposedStringWithCanonicalMapping.unicodeScalars.filter {
            $0.properties.generalCategory != .nonspacingMark
        }
        // A mark standing alone (a letter of no base, such as U+0345) keeps itself rather than vanish.
        return bare.isEmpty ? lower : String(String.UnicodeScalarView(bare))
    }

    /// Latin, Greek and Cyrillic letters lose their diacritics; other scripts keep their marks, which are part of
    /// their letters.
    private static func foldsDiacritics(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return value < 0x0530 || (0x1E00...0x1FFF).contains(value)
    }
}
