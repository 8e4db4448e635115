import ChatClient
import Testing

@Suite("Text from the network is shown, never obeyed, on a terminal")
struct TerminalTextTests {
    @Test("escape sequences, BEL, DEL and C1 controls become visible escapes; tab and line feed stay")
    func controlsAreShown() {
        #expect(TerminalText.visible("\u{1B}]52;c;ZXZpbA==\u{07}") == "\\x1b]52;c;ZXZpbA==\\x07")
        #expect(TerminalText.visible("red\u{1B}[31m!\u{7F}") == "red\\x1b[31m!\\x7f")
        #expect(TerminalText.visible("csi \u{9B}2J") == "csi \\u{9b}2J")
        #expect(TerminalText.visible("a\tb\nc") == "a\tb\nc")
        #expect(TerminalText.visible("plain, 你好 👍") == "plain, 你好 👍")
    }
}
