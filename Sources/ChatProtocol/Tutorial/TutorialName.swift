import Foundation

/// The rule both tutorial protocols apply to the name a client chooses for itself.
public enum TutorialName {
    /// The longest accepted name, in UTF-8 bytes.
    public static let maxBytes = 64

    /// What the rule says, as both protocols report it.
    public static let rule = "name must be 1 to \(maxBytes) bytes, without ':' or control characters"

    /// The name with surrounding whitespace removed, or `nil` when nothing is left, it is too long, or it holds
    /// a colon or a control character. Names from either protocol end up in TCP lines (`NAME:TEXT\n`): a line
    /// break would forge a line, and a colon would move the boundary between name and text.
    public static func normalized(_ raw: String) -> String? {
        if Self.isPlainASCIIName(raw.utf8) { return raw }
        let name = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty, name.utf8.count <= self.maxBytes, !name.contains(":") else { return nil }
        // Line and paragraph separators (U+2028, U+2029) break lines too, in clients that render them.
        let forbidden: Set<Unicode.GeneralCategory> = [.control, .lineSeparator, .paragraphSeparator]
        guard !name.unicodeScalars.contains(where: { forbidden.contains($0.properties.generalCategory) }) else {
            return nil
        }
        return name
    }

    /// The usual name, checked without Foundation's character sets (which cost a few percent of a `/chat` message's
    /// CPU): printable ASCII with no space at either end and no colon, short enough. Any other name takes the full
    /// rule, which accepts these unchanged.
    private static func isPlainASCIIName(_ bytes: String.UTF8View) -> Bool {
        guard let first = bytes.first, let last = bytes.last, first != 0x20, last != 0x20,
            bytes.count <= self.maxBytes
        else { return false }
        return bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: ":") }
    }
}
