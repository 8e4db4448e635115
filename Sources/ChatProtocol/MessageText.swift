/// What every protocol does to message text on input.
public enum MessageText {
    /// The text without the C0 control characters that are not whitespace (U+0000–U+001F except tab, LF, VT, FF
    /// and CR) and without DEL (U+007F): terminal escapes (ESC sequences, OSC 52 clipboard writes) and the
    /// search-snippet markers U+0001/U+0002 can never be stored, so no client has to defend against them.
    public static func removingControlCharacters(_ text: String) -> String {
        guard text.utf8.contains(where: Self.isRemoved) else { return text }
        var kept = String.UnicodeScalarView()
        for scalar in text.unicodeScalars where !(scalar.isASCII && Self.isRemoved(UInt8(scalar.value))) {
            kept.append(scalar)
        }
        return String(kept)
    }

    private static func isRemoved(_ byte: UInt8) -> Bool {
        (byte < 0x20 && !(0x09...0x0D).contains(byte)) || byte == 0x7F
    }
}
