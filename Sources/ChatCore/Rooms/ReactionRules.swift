/// What a reaction may be (PROTOCOL.md §9.2).
public enum ReactionRules {
    /// Whether `text` is exactly one emoji: one grapheme cluster that displays as an emoji — an emoji-presentation
    /// character (`👍`, `🇫🇷`), or an emoji-capable one made to display as emoji with U+FE0F (`❤️`, `1️⃣`),
    /// with any skin-tone modifier or ZWJ sequence inside the cluster.
    public static func isSingleEmoji(_ text: String) -> Bool {
        guard text.count == 1, text.utf8.count <= 64, let first = text.unicodeScalars.first else { return false }
        if first.properties.isEmojiPresentation { return true }
        return first.properties.isEmoji && text.unicodeScalars.contains("\u{FE0F}")
    }
}
