import ChatProtocol
import NIOCore
import Testing

@Suite("TCP line framing (PROTOCOL.md §2)")
struct TCPLineFramerTests {
    @Test func splitsOnLineFeedAndCarriageReturnLineFeed() {
        var framer = TCPLineFramer()
        let frames = framer.append(ByteBuffer(string: "iam:a\nmsg:b\r\nmsg:c"))
        #expect(frames == [.line("iam:a"), .line("msg:b")])
        #expect(framer.hasPendingBytes)
        #expect(framer.flushPendingLine() == .line("msg:c"))
        #expect(!framer.hasPendingBytes)
    }

    @Test func joinsALineSplitAcrossReads() {
        var framer = TCPLineFramer()
        #expect(framer.append(ByteBuffer(string: "msg:hel")).isEmpty)
        #expect(framer.append(ByteBuffer(string: "lo\r")).isEmpty)
        #expect(framer.append(ByteBuffer(string: "\n")) == [.line("msg:hello")])
    }

    @Test func skipsBlankLines() {
        var framer = TCPLineFramer()
        #expect(framer.append(ByteBuffer(string: "\n\r\n\nmsg:x\n")) == [.line("msg:x")])
        #expect(framer.flushPendingLine() == nil)
    }

    @Test func reportsAnOverlongLineOnceAndDiscardsItToItsEnd() {
        var framer = TCPLineFramer(maxLineBytes: 8)
        #expect(framer.append(ByteBuffer(string: "msg:12345")) == [.overlong])
        #expect(framer.append(ByteBuffer(string: "6789")).isEmpty)
        #expect(framer.append(ByteBuffer(string: "0\nmsg:ok\n")) == [.line("msg:ok")])
    }

    @Test func acceptsALineOfExactlyTheLimit() {
        var framer = TCPLineFramer(maxLineBytes: 8)
        #expect(framer.append(ByteBuffer(string: "msg:1234\r\n")) == [.line("msg:1234")])
    }

    @Test func reportsInvalidUTF8() {
        var framer = TCPLineFramer()
        var bytes = ByteBuffer(string: "msg:")
        bytes.writeBytes([0xC3, 0x28, 0x0A])
        #expect(framer.append(bytes) == [.invalidUTF8])
    }
}
