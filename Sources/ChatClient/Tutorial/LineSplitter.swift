/// Cuts a byte stream into lines at `\n` (dropping a `\r` before it), whatever the chunks look like: a line may
/// arrive in several reads, and one read may hold several lines.
public struct LineSplitter: Sendable {
    private var partial: [UInt8] = []

    /// An empty splitter.
    public init() {}

    /// Whether bytes without their `\n` are waiting.
    public var hasPartialLine: Bool { !self.partial.isEmpty }

    /// Adds a chunk and returns the lines it completes, in order.
    public mutating func append<Bytes: Sequence>(_ bytes: Bytes) -> [String] where Bytes.Element == UInt8 {
        var lines: [String] = []
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                if self.partial.last == UInt8(ascii: "\r") { self.partial.removeLast() }
                lines.append(String(decoding: self.partial, as: UTF8.self))
                self.partial.removeAll(keepingCapacity: true)
            } else {
                self.partial.append(byte)
            }
        }
        return lines
    }

    /// At the end of the stream: what is left, as a last line, if anything.
    public mutating func finish() -> String? {
        guard !self.partial.isEmpty else { return nil }
        defer { self.partial.removeAll() }
        return String(decoding: self.partial, as: UTF8.self)
    }
}
