import ChatProtocol
import Foundation
import Testing

@Suite("Slack's incoming-webhook message as plain text (PROTOCOL.md §9.14)")
struct SlackMessageTests {
    @Test(
        "markup becomes plain text",
        arguments: [
            ("<https://ci.example.org/42|Build 42> passed", "Build 42 (https://ci.example.org/42) passed"),
            ("see <https://example.org>", "see https://example.org"),
            ("<https://example.org|https://example.org>", "https://example.org"),
            ("<!channel> deploy in 5", "@all deploy in 5"),
            ("<!here|here> and <!everyone>", "@all and @all"),
            ("ping <@U024BE7LH|ann> in <#C024BE7LR|ops>", "ping @ann in #ops"),
            ("<@U024BE7LH>", "@U024BE7LH"),
            ("<!date^1392734382^{date}|Feb 18, 2014>", "Feb 18, 2014"),
            ("a &lt;b&gt; &amp; c", "a <b> & c"),
            ("x < y and no closing", "x < y and no closing"),
            ("", ""),
        ])
    func markup(_ markup: String, _ plain: String) {
        #expect(SlackMessage.plain(markup) == plain)
    }

    @Test("attachments add their pretext, title with its link, and text; the fallback stands in for both")
    func attachments() {
        let message = SlackMessage(
            text: "Pipeline finished",
            attachments: [
                .init(
                    fallback: "Build 42 passed", pretext: "main", title: "Build 42", titleLink: "https://ci/42",
                    text: "all 388 tests passed"),
                .init(fallback: "coverage 81 %"),
                .init(text: "   "),
            ])
        #expect(
            message.plainText
                == "Pipeline finished\nmain\nBuild 42 (https://ci/42)\nall 388 tests passed\ncoverage 81 %")
        #expect(SlackMessage(attachments: [.init(fallback: "only this")]).plainText == "only this")
        #expect(SlackMessage(text: "  \n ").plainText.isEmpty)
        #expect(SlackMessage(username: "ci").plainText.isEmpty)
    }

    @Test("the JSON Slack's senders post decodes, snake_case keys included")
    func decoding() throws {
        let json = """
            {"text":"hi","username":"ci","icon_url":"https://x/i.png","attachments":[{"title":"T","title_link":"https://t"}]}
            """
        let message = try JSONDecoder().decode(SlackMessage.self, from: Data(json.utf8))
        #expect(message.iconURL == "https://x/i.png" && message.attachments?.first?.titleLink == "https://t")
    }
}
