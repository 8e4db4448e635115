import DemoBot
import Testing

@Suite("The demo bot's answer: the speaker swapped (PROTOCOL.md §9.9)")
struct EchoReplyTests {
    @Test(
        "pronouns swap, case and punctuation stay, Chinese swaps character by character",
        arguments: [
            ("I like you", "you like I"),
            ("You said my name!", "I said your name!"),
            ("Is this yours or mine?", "Is this mine or yours?"),
            ("我爱你", "你爱我"),
            ("hello, world", "hello, world"),
            ("", ""),
        ])
    func swaps(_ text: String, _ expected: String) {
        #expect(EchoReply.reply(to: text) == expected)
    }
}
