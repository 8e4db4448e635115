import ChatClient
import ChatProtocol
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Output for people or for scripts: colour only on a terminal (and never with `NO_COLOR`).
enum Terminal {
    static let isOutputTTY = isatty(STDOUT_FILENO) == 1
    static let isInputTTY = isatty(STDIN_FILENO) == 1
    static let useColor = isOutputTTY && ProcessInfo.processInfo.environment["NO_COLOR"] == nil

    private static let palette = [31, 32, 33, 34, 35, 36, 91, 92, 93, 94, 95, 96]

    static func paint(_ text: String, _ code: Int) -> String {
        useColor ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    static func dim(_ text: String) -> String { paint(text, 2) }
    static func bold(_ text: String) -> String { paint(text, 1) }

    /// The same colour for a name every time; control characters in it are shown, not obeyed.
    static func colored(name: String) -> String {
        let hash = name.unicodeScalars.reduce(UInt32(5381)) { ($0 &* 33) &+ $1.value }
        return paint(TerminalText.visible(name), palette[Int(hash % UInt32(palette.count))])
    }

    /// `HH:mm` for milliseconds since 1970.
    static func time(milliseconds: Int64) -> String {
        time(Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }

    static func time(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm"
        return formatter.string(from: date)
    }

    /// Writes one line to standard output at once (so lines from two tasks never interleave).
    static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    static func error(_ text: String) {
        FileHandle.standardError.write(Data(("chat: " + text + "\n").utf8))
    }

    /// Reads a password from the terminal without echoing it; from a pipe, reads one line.
    static func readPassword(prompt: String) -> String? {
        FileHandle.standardError.write(Data(prompt.utf8))
        guard isInputTTY else { return readLine(strippingNewline: true) }
        var original = termios()
        tcgetattr(STDIN_FILENO, &original)
        var silent = original
        silent.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
        defer {
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &original)
            FileHandle.standardError.write(Data("\n".utf8))
        }
        return readLine(strippingNewline: true)
    }

    /// One JSON object per line, keys sorted.
    static func json(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? String(decoding: encoder.encode(value), as: UTF8.self)) ?? "{}"
    }

    /// A message as one line: `[12:30] ann: hello`, with edits, deletes and reactions described. Everything that
    /// came from the network passes through ``TerminalText/visible(_:)``.
    static func render(_ message: MessagePayload, roomLabel: String? = nil) -> String {
        let visible = TerminalText.visible
        let prefix = (roomLabel.map { dim("[\(visible($0))] ") } ?? "") + dim("[\(time(milliseconds: message.date))]")
        let name = colored(name: message.sender.name)
        let sender = visible(message.sender.name)
        switch message.eventKind {
        case .edit: return "\(prefix) \(dim("\(sender) edited #\(message.target ?? 0):")) \(visible(message.text))"
        case .delete: return "\(prefix) \(dim("\(sender) deleted #\(message.target ?? 0)"))"
        case .rename: return "\(prefix) \(dim("\(sender) renamed the room to")) \(visible(message.text))"
        case .joined, .left, .invited, .removed, .banned, .role:
            return "\(prefix) \(dim(visible(message.membershipSentence ?? "")))"
        case .preview:
            guard let preview = message.preview else {
                return "\(prefix) \(dim("\(sender) removed the preview of #\(message.target ?? 0)"))"
            }
            let title = visible(preview.title ?? preview.siteName ?? preview.url)
            return "\(prefix) \(dim("#\(message.target ?? 0) links to")) \(title)"
        case .pin:
            let verb = message.added == false ? "unpinned" : "pinned"
            return "\(prefix) \(dim("\(sender) \(verb) #\(message.target ?? 0)"))"
        case .reaction:
            let verb = message.added == false ? "removed" : "reacted"
            return "\(prefix) \(dim("\(sender) \(verb) \(visible(message.emoji ?? "")) on #\(message.target ?? 0)"))"
        case .message, nil:
            var text = message.deleted == true ? dim("(deleted)") : visible(message.text)
            if let original = message.forwardedFrom {
                text = dim("forwarded from \(visible(original.name)) │ ") + text
            }
            if let quote = message.replyTo {
                text = dim("↪ \(visible(quote.sender.name)): \(visible(String(quote.text.prefix(40)))) │ ") + text
            }
            for attachment in message.attachments ?? [] {
                if let duration = attachment.durationMs {
                    text += dim(" [voice message, \((duration + 500) / 1000) s]")
                } else {
                    text += dim(" [\(visible(attachment.name)), \(attachment.size) bytes]")
                }
            }
            if message.editedAt != nil { text += dim(" (edited)") }
            if let reactions = message.reactions, !reactions.isEmpty {
                text += " " + reactions.map { "\(visible($0.emoji))\($0.users.count)" }.joined(separator: " ")
            }
            return "\(prefix) \(name): \(text)"
        }
    }
}

/// Lines typed on standard input, read on a thread of their own (`readLine` blocks).
enum StandardInput {
    static func lines() -> AsyncStream<String> {
        AsyncStream { continuation in
            let thread = Thread {
                while let line = readLine(strippingNewline: true) { continuation.yield(line) }
                continuation.finish()
            }
            thread.start()
        }
    }
}
