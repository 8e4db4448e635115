/// Text from the network made safe to print on a terminal.
public enum TerminalText {
    /// Control characters shown as visible escapes (`\x1b`, `\x07`, `\u{9b}`) instead of being sent to the
    /// terminal, so a message can neither move the cursor, change colours, nor write the clipboard (OSC 52),
    /// whatever a server relays. Tab and line feed stay as they are.
    public static func visible(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: Self.isControl) else { return text }
        var shown = ""
        for scalar in text.unicodeScalars {
            if !Self.isControl(scalar) {
                shown.unicodeScalars.append(scalar)
            } else if scalar.value < 0x80 {
                shown += "\\x" + Self.hex(scalar.value, digits: 2)
            } else {
                shown += "\\u{" + Self.hex(scalar.value, digits: 2) + "}"
            }
        }
        return shown
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar != "\t", scalar != "\n" else { return false }
        return scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
