/// The lines a TCP client receives. Each ends in a single `\n`.
public enum TCPLine {
    /// `NAME has joined\n`, sent to every TCP client, the joiner included.
    public static func joined(_ name: String) -> String { "\(name) has joined\n" }

    /// `NAME has left\n`.
    public static func left(_ name: String) -> String { "\(name) has left\n" }

    /// `NAME:TEXT\n`. Line breaks inside the text become spaces so one message stays one line.
    public static func message(from name: String, text: String) -> String {
        "\(name):\(self.singleLine(text))\n"
    }

    /// `err:REASON\n`.
    public static func error(_ rejection: TCPCommand.Rejection) -> String { "err:\(rejection)\n" }

    private static func singleLine(_ text: String) -> String {
        guard text.contains(where: \.isNewline) else { return text }
        return String(text.map { $0.isNewline ? " " : $0 })
    }
}
