import Foundation

/// The rule both legacy protocols apply to the name a client chooses for itself.
public enum LegacyName {
    /// The longest accepted name, in UTF-8 bytes.
    public static let maxBytes = 64

    /// The name with surrounding whitespace removed, or `nil` when nothing is left, it is too long, or it
    /// holds a control character (a line break in a name would forge a line on the TCP protocol).
    public static func normalized(_ raw: String) -> String? {
        let name = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty, name.utf8.count <= self.maxBytes else { return nil }
        guard !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { return nil }
        return name
    }
}
