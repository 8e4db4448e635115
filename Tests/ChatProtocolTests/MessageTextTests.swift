import ChatProtocol
import Testing

@Suite("Message text on input: no control characters but whitespace (PROTOCOL.md §5.2)")
struct MessageTextTests {
    @Test("C0 controls other than tab, LF, VT, FF and CR, and DEL, are removed; everything else stays")
    func removesControls() {
        #expect(MessageText.removingControlCharacters("a\u{0}b\u{1}c\u{2}d\u{3}e\u{1B}[31mf\u{7F}") == "abcde[31mf")
        #expect(
            MessageText.removingControlCharacters("tab\tlf\nvt\u{0B}ff\u{0C}cr\r") == "tab\tlf\nvt\u{0B}ff\u{0C}cr\r")
        #expect(MessageText.removingControlCharacters("你好 👍🏽 café") == "你好 👍🏽 café")
        #expect(MessageText.removingControlCharacters("\u{9B}") == "\u{9B}")
    }

    @Test("the decoders apply it: /chat and TCP")
    func decodersApplyIt() throws {
        let decoded = try LobbyChatDecoder(maxMessageBytes: 100).decode(#"{"message":"hi\u001b[2J"}"#).get()
        #expect(decoded.message == "hi[2J")
        #expect(TCPCommand.parse("msg:\u{1B}\u{7}") == .failure(.emptyMessage))
        #expect(TCPCommand.parse("msg:ok\u{1B}") == .success(.msg(text: "ok")))
    }

    @Test("a name with a line or paragraph separator is refused: it would forge a line (Fuzz/Regressions)")
    func namesWithSeparators() {
        #expect(TCPCommand.parse("iam:e\u{2028}f") == .failure(.invalidName))
        #expect(TutorialName.normalized("a\u{2029}b") == nil)
        #expect(TutorialName.normalized("Zoë 🙂") == "Zoë 🙂")
    }

    @Test("plain ASCII names follow the same rule as the rest: trimmed, no colon, no control, at most 64 bytes")
    func plainASCIINames() {
        #expect(TutorialName.normalized("Ann Lee") == "Ann Lee")
        #expect(TutorialName.normalized(" Ann ") == "Ann")
        #expect(TutorialName.normalized("\tAnn") == "Ann")
        #expect(TutorialName.normalized("a:b") == nil)
        #expect(TutorialName.normalized("a\u{7F}b") == nil)
        #expect(TutorialName.normalized("a\u{1B}b") == nil)
        #expect(TutorialName.normalized(String(repeating: "x", count: 64)) == String(repeating: "x", count: 64))
        #expect(TutorialName.normalized(String(repeating: "x", count: 65)) == nil)
        #expect(TutorialName.normalized("   ") == nil)
        #expect(TutorialName.normalized("") == nil)
    }
}
