import Foundation
import Testing

@testable import ChatCore

@Suite("Search reads texts and queries the same way in every script (SearchText, SearchDocument, SearchQuery)")
struct SearchQueryTests {
    @Test("words are folded; runs of unspaced scripts give one token per character: bigrams, the last alone")
    func documentTokens() {
        let sender = UUID()
        let tokens = SearchDocument.tokens(text: "Café 我们开会, ｘ", sender: sender, mentions: Mentions())
        #expect(tokens == ["cafe", "我们", "们开", "开会", "会", "x", SearchFeature.sender(sender).token])
        let linked = SearchDocument.tokens(
            text: "see HTTPS://example.org", sender: sender, mentions: Mentions(all: true))
        #expect(linked.suffix(2) == [SearchFeature.link.token, SearchFeature.mentionOfAll.token])
    }

    @Test("a run of two or more characters is a phrase of bigrams; one character a prefix; the last long word a prefix")
    func queryPhrases() throws {
        let query = try SearchQuery.parse("讨论预算 我 hel")
        #expect(
            query.phrases == [
                SearchPhrase([.init("讨论"), .init("论预"), .init("预算")]),
                SearchPhrase([.init("我", isPrefix: true)]),
                SearchPhrase([.init("hel", isPrefix: true)]),
            ])
        // Inside a phrase, a run followed by a word keeps its last character, as the index does at a run's end.
        let quoted = try SearchQuery.parse("\"世界 bye\" he")
        #expect(
            quoted.phrases == [
                SearchPhrase([.init("世界"), .init("界"), .init("bye")]), SearchPhrase([.init("he")]),
            ])
    }

    @Test("filters and exclusions are read, their values checked; a colon that names no filter is words")
    func filters() throws {
        let query = try SearchQuery.parse(
            "budget -draft from:@ann in:#design has:link,image before:2026-03-01 is:mention re:port")
        #expect(query.from == "ann")
        #expect(query.roomName == "design")
        #expect(query.has == [.link, .image])
        #expect(query.before == SearchQuery.day("2026-03-01"))
        #expect(query.mentionsMe)
        #expect(query.excluded == [SearchPhrase([.init("draft")])])
        #expect(query.phrases.last == SearchPhrase([.init("re"), .init("port", isPrefix: true)]))
        let after = try SearchQuery.parse("after:2026-02-28")
        #expect(after.after == SearchQuery.day("2026-03-01"))
        for bad in ["from:", "has:video", "before:2026-13-45", "before:2026-02-30", "is:unread", "-from:ann", "-draft"]
        {
            #expect(throws: SearchQueryError.self, "\(bad)") { try SearchQuery.parse(bad) }
        }
        #expect(try SearchQuery.parse("🙂 ，。").isEmpty)
    }

    @Test("a combining letter standing alone keeps itself rather than fold to nothing (a fuzzer's find)")
    func loneCombiningLetter() throws {
        let query = try SearchQuery.parse("d\u{345}")
        #expect(query.phrases.allSatisfy { $0.tokens.allSatisfy { !$0.text.isEmpty } })
        #expect(SearchText.segments(of: "\u{345}").allSatisfy { $0.folded.allSatisfy { !$0.isEmpty } })
    }

    @Test("a snippet marks exactly what matched, inside a run too")
    func snippets() throws {
        let phrases = try SearchQuery.parse("开会 report").phrases
        let pieces = SearchSnippet.pieces(of: "我们明天开会 about the Reports", matching: phrases)
        #expect(pieces.filter(\.isMatch).map(\.text) == ["开会", "Reports"])
        #expect(pieces.map(\.text).joined() == "我们明天开会 about the Reports")
    }
}
