import Foundation

extension SlackMessage {
    /// The message as SwiftChat shows it: `text`, then each attachment's `pretext`, `title` (with its link) and
    /// `text` (its `fallback` when it has neither title nor text), one per line, Slack's markup made plain (``plain(_:)``).
    /// Empty when there is nothing to show.
    public var plainText: String {
        var lines: [String] = []
        if let text { lines.append(Self.plain(text)) }
        for attachment in self.attachments ?? [] {
            if let pretext = attachment.pretext { lines.append(Self.plain(pretext)) }
            if let title = attachment.title {
                let link = attachment.titleLink.map { " (\($0))" } ?? ""
                lines.append(Self.plain(title) + link)
            }
            if let text = attachment.text { lines.append(Self.plain(text)) }
            if attachment.title == nil, attachment.text == nil, let fallback = attachment.fallback {
                lines.append(Self.plain(fallback))
            }
        }
        return lines.filter { !$0.allSatisfy(\.isWhitespace) }.joined(separator: "\n")
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Slack's markup as plain text: `<https://x|label>` becomes `label (https://x)` and `<https://x>` the address;
    /// `<!channel>`, `<!here>` and `<!everyone>` become `@all`; `<@U1|ann>` becomes `@ann`, `<#C1|news>` `#news`;
    /// any other `<…|label>` its label; `&lt;`, `&gt;` and `&amp;` are the characters Slack escapes.
    public static func plain(_ markup: String) -> String {
        var result = ""
        var rest = markup[...]
        while let open = rest.firstIndex(of: "<"), let close = rest[open...].firstIndex(of: ">") {
            result += rest[..<open]
            result += Self.token(rest[rest.index(after: open)..<close])
            rest = rest[rest.index(after: close)...]
        }
        result += rest
        return result.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    /// One `<…>` of Slack's markup, without its brackets.
    private static func token(_ body: Substring) -> String {
        let parts = body.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false)
        let target = String(parts[0])
        let label = parts.count > 1 ? String(parts[1]) : nil
        switch target.first {
        case "!":
            if ["!channel", "!here", "!everyone"].contains(target) { return "@all" }
            return label ?? ""
        case "@":
            return "@" + (label ?? String(target.dropFirst()))
        case "#":
            return "#" + (label ?? String(target.dropFirst()))
        default:
            guard let label, label != target else { return target }
            return "\(label) (\(target))"
        }
    }
}
