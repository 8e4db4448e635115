import Foundation

/// What a web page says about itself for a preview (PROTOCOL.md §9.15): its OpenGraph tags (`og:title`,
/// `og:description`, `og:site_name`, `og:image`), or failing those its `<title>`, `<meta name="description">` and
/// Twitter card image. Read from the page's markup with a tolerant scan of its tags, not a full HTML parser: only
/// `<meta>` and `<title>` matter, and a page that breaks the scan gets no preview, never a wrong one.
public struct LinkPreviewPage: Sendable, Equatable {
    public var title: String?
    public var description: String?
    public var siteName: String?
    /// The image's absolute URL (relative ones are resolved against the page's URL).
    public var imageURL: String?

    /// The longest title, description and site name kept, in characters; longer ones are cut with "…".
    public static let maxTitle = 200
    public static let maxDescription = 500
    public static let maxSiteName = 100

    public init(title: String? = nil, description: String? = nil, siteName: String? = nil, imageURL: String? = nil) {
        self.title = title
        self.description = description
        self.siteName = siteName
        self.imageURL = imageURL
    }

    /// Whether there is anything to show: a title or a description.
    public var isWorthShowing: Bool { self.title != nil || self.description != nil }

    /// The page's description of itself, from its markup (decoded as UTF-8) fetched from `url`.
    public static func parse(_ html: String, url: URL) -> LinkPreviewPage {
        var meta: [String: String] = [:]
        var title: String?
        var scanner = TagScanner(html)
        while let tag = scanner.next() {
            switch tag.name {
            case "meta":
                guard let key = (tag.attributes["property"] ?? tag.attributes["name"])?.lowercased(),
                    let content = tag.attributes["content"], meta[key] == nil
                else { continue }
                meta[key] = content
            case "title" where title == nil:
                title = scanner.text(until: "</title")
            case "body", "/head":
                // The metadata is in the head; a body can be long.
                if !meta.isEmpty || title != nil { return Self.page(meta: meta, title: title, url: url) }
            default:
                continue
            }
        }
        return Self.page(meta: meta, title: title, url: url)
    }

    private static func page(meta: [String: String], title: String?, url: URL) -> LinkPreviewPage {
        func clean(_ text: String?, _ limit: Int) -> String? {
            guard let text else { return nil }
            let words = HTMLText.decode(text).split(whereSeparator: \.isWhitespace).joined(separator: " ")
            guard !words.isEmpty else { return nil }
            return words.count > limit ? String(words.prefix(limit - 1)) + "…" : words
        }
        let image = (meta["og:image"] ?? meta["og:image:url"] ?? meta["twitter:image"]).flatMap { raw in
            URL(string: HTMLText.decode(raw).trimmingCharacters(in: .whitespaces), relativeTo: url)?.absoluteURL
        }
        return LinkPreviewPage(
            title: clean(meta["og:title"] ?? meta["twitter:title"] ?? title, Self.maxTitle),
            description: clean(
                meta["og:description"] ?? meta["twitter:description"] ?? meta["description"], Self.maxDescription),
            siteName: clean(meta["og:site_name"], Self.maxSiteName),
            imageURL: image.flatMap {
                ["http", "https"].contains($0.scheme?.lowercased() ?? "") ? $0.absoluteString : nil
            })
    }
}

/// The tags of an HTML text, in order, with their attributes; comments, scripts and styles skipped.
private struct TagScanner {
    struct Tag {
        /// Lowercased; a closing tag's name starts with `/`.
        let name: String
        let attributes: [String: String]
    }

    private let text: String
    private var index: String.Index

    init(_ text: String) {
        self.text = text
        self.index = text.startIndex
    }

    mutating func next() -> Tag? {
        while let open = self.text[self.index...].firstIndex(of: "<") {
            self.index = self.text.index(after: open)
            let rest = self.text[self.index...]
            if rest.hasPrefix("!--") {
                self.skip(past: "-->")
                continue
            }
            let closing = rest.first == "/"
            let bare = rest.dropFirst(closing ? 1 : 0).prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == ":" }
            guard let first = bare.first, first.isLetter else { continue }
            let name = (closing ? "/" : "") + bare.lowercased()
            self.index = bare.endIndex
            let attributes = self.attributes()
            if name == "script" || name == "style" { self.skip(past: "</\(name)") }
            return Tag(name: name, attributes: attributes)
        }
        self.index = self.text.endIndex
        return nil
    }

    /// The text up to `end` (case-insensitive), which is skipped too.
    mutating func text(until end: String) -> String {
        let start = self.index
        self.skip(past: end)
        let stop = self.text[start..<self.index].range(of: end, options: [.caseInsensitive, .backwards])?.lowerBound
        return String(self.text[start..<(stop ?? self.index)])
    }

    private mutating func skip(past marker: String) {
        guard let found = self.text[self.index...].range(of: marker, options: .caseInsensitive) else {
            self.index = self.text.endIndex
            return
        }
        self.index = found.upperBound
    }

    /// The attributes up to the tag's `>`, names lowercased; unquoted and single- or double-quoted values.
    private mutating func attributes() -> [String: String] {
        var attributes: [String: String] = [:]
        let characters = self.text
        func skipSpace() {
            while self.index < characters.endIndex, characters[self.index].isWhitespace || characters[self.index] == "/"
            {
                self.index = characters.index(after: self.index)
            }
        }
        while true {
            skipSpace()
            guard self.index < characters.endIndex else { return attributes }
            if characters[self.index] == ">" {
                self.index = characters.index(after: self.index)
                return attributes
            }
            let nameStart = self.index
            while self.index < characters.endIndex, !characters[self.index].isWhitespace,
                !"=>/".contains(characters[self.index])
            {
                self.index = characters.index(after: self.index)
            }
            let name = characters[nameStart..<self.index].lowercased()
            skipSpace()
            var value = ""
            if self.index < characters.endIndex, characters[self.index] == "=" {
                self.index = characters.index(after: self.index)
                while self.index < characters.endIndex, characters[self.index].isWhitespace {
                    self.index = characters.index(after: self.index)
                }
                guard self.index < characters.endIndex else { return attributes }
                let quote = characters[self.index]
                if quote == "\"" || quote == "'" {
                    let valueStart = characters.index(after: self.index)
                    let valueEnd = characters[valueStart...].firstIndex(of: quote) ?? characters.endIndex
                    value = String(characters[valueStart..<valueEnd])
                    self.index = valueEnd < characters.endIndex ? characters.index(after: valueEnd) : valueEnd
                } else {
                    let valueStart = self.index
                    while self.index < characters.endIndex, !characters[self.index].isWhitespace,
                        characters[self.index] != ">"
                    {
                        self.index = characters.index(after: self.index)
                    }
                    value = String(characters[valueStart..<self.index])
                }
            }
            if !name.isEmpty, attributes[name] == nil { attributes[name] = value }
        }
    }
}

/// Character references in HTML text: the named ones pages use in titles, and numeric ones.
enum HTMLText {
    private static let named: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " ", "ndash": "–", "mdash": "—",
        "hellip": "…", "laquo": "«", "raquo": "»", "lsquo": "‘", "rsquo": "’", "ldquo": "“", "rdquo": "”",
        "middot": "·", "copy": "©", "reg": "®", "trade": "™",
    ]

    static func decode(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var decoded = ""
        var rest = Substring(text)
        while let ampersand = rest.firstIndex(of: "&") {
            decoded += rest[..<ampersand]
            let after = rest[rest.index(after: ampersand)...]
            if let semicolon = after.prefix(10).firstIndex(of: ";"), let character = Self.character(after[..<semicolon])
            {
                decoded += character
                rest = after[after.index(after: semicolon)...]
            } else {
                decoded += "&"
                rest = after
            }
        }
        return decoded + rest
    }

    private static func character(_ reference: Substring) -> String? {
        guard reference.first == "#" else { return Self.named[String(reference)] }
        let digits = reference.dropFirst()
        let value: UInt32? =
            digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
        return value.flatMap(Unicode.Scalar.init).map { String(Character($0)) }
    }
}
