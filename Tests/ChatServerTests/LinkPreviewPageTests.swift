import ChatUseCases
import Foundation
import Testing

/// How the server finds a message's link and reads a page's description of itself (PROTOCOL.md §9.15).
@Suite("Link previews: the link a message carries, and what a page says about itself")
struct LinkPreviewPageTests {
    @Test(
        "the first http(s) link, ended as the web client ends it",
        arguments: [
            ("see https://example.com/a.", "https://example.com/a"),
            (
                "see https://en.wikipedia.org/wiki/Swift_(language) now",
                "https://en.wikipedia.org/wiki/Swift_(language)"
            ),
            ("(https://example.com/x)", "https://example.com/x"),
            ("看这个：https://例子.cn/路径。好吗", "https://例子.cn/路径"),
            ("链接https://example.com/a，还有（https://example.com/b）", "https://example.com/a"),
            ("two: HTTP://A.example/x and https://b.example", "HTTP://A.example/x"),
            ("<https://slack.example|label>", "https://slack.example|label"),
            ("quoted 'https://q.example/p' here", "https://q.example/p"),
        ])
    func firstLink(text: String, expected: String) {
        #expect(MessageLinks.first(in: text) == expected)
    }

    @Test(
        "no link: another scheme, a bare scheme, a word run into it, or too long",
        arguments: [
            "ftp://files.example/x", "file:///etc/passwd", "see https:// alone", "xhttps://glued.example",
            "https://" + String(repeating: "a", count: 2100), "no link at all",
        ])
    func noLink(text: String) {
        #expect(MessageLinks.first(in: text) == nil)
    }

    @Test(
        "OpenGraph first, with character references decoded (an unknown one kept as written), white space collapsed and the image made absolute"
    )
    func openGraph() throws {
        let html = """
            <HTML><HEAD><!-- <meta property="og:title" content="commented out"> -->
            <script>var s = "<meta property='og:title' content='in a script'>";</script>
            <META PROPERTY="og:title" CONTENT="Caf&eacute; &amp; &#x4E2D;&#25991; &quot;news&quot;">
            <meta name=description content=unquoted>
            <meta property="og:description" content="  two
               lines  ">
            <meta property="og:image" content="../img/a.png?x=1&amp;y=2">
            <title>Fallback</title></HEAD><body></body></HTML>
            """
        let page = LinkPreviewPage.parse(html, url: try #require(URL(string: "https://news.example/a/b/page")))
        #expect(page.title == "Caf&eacute; & 中文 \"news\"")
        #expect(page.description == "two lines")
        #expect(page.siteName == nil)
        #expect(page.imageURL == "https://news.example/a/img/a.png?x=1&y=2")
    }

    @Test("without OpenGraph: the <title> and the description; long text cut; nothing worth showing without either")
    func fallbacks() throws {
        let url = try #require(URL(string: "http://plain.example/"))
        let long = String(repeating: "word ", count: 200)
        let page = LinkPreviewPage.parse(
            "<title>  A  plain\npage </title><meta name='Description' content='\(long)'>", url: url)
        #expect(page.title == "A plain page")
        #expect(page.description?.count == LinkPreviewPage.maxDescription && page.description?.hasSuffix("…") == true)
        #expect(page.isWorthShowing)
        #expect(!LinkPreviewPage.parse("<p>no head at all</p>", url: url).isWorthShowing)
        #expect(
            LinkPreviewPage.parse("<meta property=og:image content='javascript:alert(1)'>", url: url).imageURL == nil)
        #expect(LinkPreviewPage.parse("<title>unclosed", url: url).title == "unclosed")
    }
}
