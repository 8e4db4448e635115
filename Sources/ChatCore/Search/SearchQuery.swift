import Foundation

/// A search as typed (PROTOCOL.md §9.7): words and phrases to find, some to exclude, and filters. Nothing in it is
/// handed to a database as syntax: words become tokens (``SearchPhrase``) and filters become values.
///
/// `report "budget review" -draft from:ann in:design has:link after:2026-01-31 is:mention`
public struct SearchQuery: Sendable, Equatable {
    /// Phrases every message found holds.
    public var phrases: [SearchPhrase] = []
    /// Phrases no message found holds (`-word`, `-"a phrase"`).
    public var excluded: [SearchPhrase] = []
    /// `from:username`: the sender's username, without `@`.
    public var from: String?
    /// `in:name`: a room of mine by its name (a channel or a group), or a direct room by the other's username.
    public var roomName: String?
    public var has: Set<SearchAttachmentFilter> = []
    /// `before:YYYY-MM-DD`: sent before the start of that day (UTC).
    public var before: Date?
    /// `after:YYYY-MM-DD`: sent after the end of that day (UTC).
    public var after: Date?
    /// `is:mention`: messages that mention me, by name or `@all`.
    public var mentionsMe = false

    /// The longest query accepted, in characters.
    public static let maxCharacters = 200

    public init() {}

    /// Whether the query asks for anything: a query of only punctuation or emoji finds nothing.
    public var isEmpty: Bool {
        self.phrases.isEmpty && self.excluded.isEmpty && !self.hasFilter
    }

    /// Whether the query narrows by anything but words: a filter alone is a search.
    public var hasFilter: Bool {
        self.from != nil || self.roomName != nil || !self.has.isEmpty || self.before != nil || self.after != nil
            || self.mentionsMe
    }

    /// Parses what was typed. Throws ``SearchQueryError`` for a query too long or a filter it cannot read.
    public static func parse(_ text: String) throws(SearchQueryError) -> SearchQuery {
        guard text.count <= Self.maxCharacters else {
            throw SearchQueryError("A search is at most \(Self.maxCharacters) characters.")
        }
        var query = SearchQuery()
        var lastTyped: (index: Int, segments: [SearchText.Segment])?
        for chunk in Self.chunks(of: text) {
            if !chunk.quoted, !chunk.excluded, try query.applyFilter(chunk.text) { continue }
            if !chunk.quoted, chunk.excluded, Self.filterKey(of: chunk.text) != nil {
                throw SearchQueryError("A filter cannot be excluded: \(chunk.text)")
            }
            let segments = SearchText.segments(of: chunk.text)
            guard let phrase = SearchPhrase.typed(segments) else { continue }
            if chunk.excluded {
                query.excluded.append(phrase)
            } else {
                query.phrases.append(phrase)
                lastTyped = chunk.quoted ? nil : (query.phrases.count - 1, segments)
            }
        }
        // The last word typed also matches as a prefix, as a search box's user expects while typing.
        if let lastTyped, lastTyped.index == query.phrases.count - 1 {
            query.phrases[lastTyped.index] = query.phrases[lastTyped.index].lastWordAsPrefix(lastTyped.segments)
        }
        if query.phrases.isEmpty, !query.excluded.isEmpty, !query.hasFilter {
            throw SearchQueryError("A search needs a word or a filter besides the words it excludes.")
        }
        return query
    }

    /// A piece of the query: a run of characters up to a space, or a quoted phrase; `-` in front excludes it.
    private struct Chunk {
        var text: String
        var quoted: Bool
        var excluded: Bool
    }

    /// The chunks of `text`: spaces separate them, except inside quotes (a quote left open runs to the end).
    private static func chunks(of text: String) -> [Chunk] {
        var chunks: [Chunk] = []
        var rest = Substring(text)
        while let start = rest.firstIndex(where: { !$0.isWhitespace }) {
            rest = rest[start...]
            var excluded = false
            if rest.first == "-", rest.count > 1, let next = rest.dropFirst().first, !next.isWhitespace {
                excluded = true
                rest = rest.dropFirst()
            }
            if rest.first == "\"" {
                let inside = rest.dropFirst()
                let end = inside.firstIndex(of: "\"") ?? inside.endIndex
                chunks.append(Chunk(text: String(inside[..<end]), quoted: true, excluded: excluded))
                rest = end < inside.endIndex ? inside[inside.index(after: end)...] : inside[end...]
            } else {
                let end = rest.firstIndex(where: \.isWhitespace) ?? rest.endIndex
                chunks.append(Chunk(text: String(rest[..<end]), quoted: false, excluded: excluded))
                rest = rest[end...]
            }
        }
        return chunks
    }

    /// The filter a chunk names (`from`, `in`, `has`, `before`, `after`, `is`), or `nil` for words.
    private static func filterKey(of chunk: String) -> String? {
        guard let colon = chunk.firstIndex(of: ":") else { return nil }
        let key = chunk[..<colon].lowercased()
        return Self.filterKeys.contains(key) ? key : nil
    }

    private static let filterKeys: Set<String> = ["from", "in", "has", "before", "after", "is"]

    /// Applies a filter chunk; `false` when the chunk is words (`re:port`, `https://…` name no filter).
    private mutating func applyFilter(_ chunk: String) throws(SearchQueryError) -> Bool {
        guard let key = Self.filterKey(of: chunk), let colon = chunk.firstIndex(of: ":") else { return false }
        let value = String(chunk[chunk.index(after: colon)...])
        try self.apply(key, value)
        return true
    }

    /// Applies one filter, whether typed in the query (`has:link`) or given as a parameter (`has=link`).
    public mutating func apply(_ key: String, _ value: String) throws(SearchQueryError) {
        guard !value.isEmpty else { throw SearchQueryError("\(key): needs a value.") }
        switch key {
        case "from":
            let name = value.hasPrefix("@") ? String(value.dropFirst()) : value
            guard !name.isEmpty else { throw SearchQueryError("from: needs a username.") }
            self.from = name
        case "in":
            let name = value.hasPrefix("#") ? String(value.dropFirst()) : value
            guard !name.isEmpty else { throw SearchQueryError("in: needs a room's name.") }
            self.roomName = name
        case "has":
            for item in value.split(separator: ",") {
                guard let filter = SearchAttachmentFilter(rawValue: item.lowercased()) else {
                    throw SearchQueryError("has: is link, image or file, not \(item).")
                }
                self.has.insert(filter)
            }
        case "before", "after":
            guard let day = Self.day(value) else {
                throw SearchQueryError("\(key): takes a date as YYYY-MM-DD, not \(value).")
            }
            if key == "before" {
                self.before = day
            } else {
                self.after = day.addingTimeInterval(86_400)
            }
        case "is":
            guard value.lowercased() == "mention" else { throw SearchQueryError("is: takes mention, not \(value).") }
            self.mentionsMe = true
        default:
            throw SearchQueryError("\(key) is not a filter.")
        }
    }

    /// The start of a day written `YYYY-MM-DD`, in UTC; `nil` for anything else (`2026-13-45`).
    static func day(_ text: String) -> Date? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let components = DateComponents(year: year, month: month, day: day)
        guard let date = calendar.date(from: components) else { return nil }
        let read = calendar.dateComponents([.year, .month, .day], from: date)
        guard read.year == year, read.month == month, read.day == day else { return nil }
        return date
    }
}

/// `has:` filters.
public enum SearchAttachmentFilter: String, Sendable, Hashable, CaseIterable {
    /// A web link in the text.
    case link
    /// An image attachment.
    case image
    /// An attachment that is not an image.
    case file
}

/// Why a query could not be read, in words for the person who typed it.
public struct SearchQueryError: Error, Equatable {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }
}
