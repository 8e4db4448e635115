import NIOCore

/// Splits a TCP byte stream into command lines.
///
/// A line ends at `\n` or `\r\n`. The DogeChat iOS client writes each command with no terminator at all, one
/// write per command, so the owner of a framer also calls ``flushPendingLine()`` once no bytes have arrived for
/// a short while: whatever is buffered then counts as one complete line.
///
/// A line longer than ``maxLineBytes`` is reported once as ``Frame/overlong`` and discarded up to its end.
public struct TCPLineFramer: Sendable {
    /// One unit the framer produces.
    public enum Frame: Equatable, Sendable {
        case line(String)
        case overlong
        case invalidUTF8
    }

    /// The longest accepted line, terminator excluded.
    public let maxLineBytes: Int
    private var pending: ByteBuffer
    private var discardingOverlongLine = false

    /// Creates a framer that accepts lines of at most `maxLineBytes` bytes.
    public init(maxLineBytes: Int = 4096) {
        self.maxLineBytes = maxLineBytes
        self.pending = ByteBuffer()
    }

    /// Whether bytes of an unterminated line are waiting.
    public var hasPendingBytes: Bool { self.pending.readableBytes > 0 }

    /// Feeds bytes in and returns every line they complete, in order.
    public mutating func append(_ bytes: ByteBuffer) -> [Frame] {
        var bytes = bytes
        var frames: [Frame] = []
        while bytes.readableBytes > 0 {
            guard let newline = bytes.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) else {
                self.buffer(bytes.readSlice(length: bytes.readableBytes)!, into: &frames)
                break
            }
            let chunk = bytes.readSlice(length: newline - bytes.readerIndex)!
            bytes.moveReaderIndex(forwardBy: 1)
            self.buffer(chunk, into: &frames)
            if let frame = self.takeLine() { frames.append(frame) }
        }
        return frames
    }

    /// Treats the buffered, unterminated bytes as one complete line; `nil` when nothing was buffered.
    public mutating func flushPendingLine() -> Frame? {
        self.takeLine()
    }

    private mutating func buffer(_ chunk: ByteBuffer, into frames: inout [Frame]) {
        if self.discardingOverlongLine { return }
        var chunk = chunk
        self.pending.writeBuffer(&chunk)
        // A line may exceed the limit by one byte only while that byte is a `\r` still waiting for its `\n`.
        let excess = self.pending.readableBytes - self.maxLineBytes
        if excess > 1 || (excess == 1 && self.pending.readableBytesView.last != UInt8(ascii: "\r")) {
            self.pending.clear()
            self.discardingOverlongLine = true
            frames.append(.overlong)
        }
    }

    private mutating func takeLine() -> Frame? {
        defer {
            self.pending.clear()
            self.discardingOverlongLine = false
        }
        if self.discardingOverlongLine { return nil }
        var line = self.pending
        if line.readableBytesView.last == UInt8(ascii: "\r") {
            line.moveWriterIndex(to: line.writerIndex - 1)
        }
        if line.readableBytes == 0 { return nil }  // blank lines (an `nc` user pressing Enter) are skipped
        if line.readableBytes > self.maxLineBytes { return .overlong }
        guard let text = String(validating: line.readableBytesView, as: UTF8.self) else { return .invalidUTF8 }
        return .line(text)
    }
}
