/// Watches a multipart body as it streams and refuses what would crash multipart-kit's parser.
///
/// multipart-kit 4.7.1 looks each byte of a part's header *name* up in a 128-entry table without a bounds check,
/// so a byte of 0x80 or more there traps and ends the whole server (found by `Fuzz/MultipartFuzzer`; see
/// `Fuzz/Regressions/README.md`). This guard follows the same structure — delimiter line, header lines, body —
/// and throws before such a byte reaches the parser. Header values (a UTF-8 file name) and bodies may hold any
/// byte; so may the epilogue after the closing delimiter, which the parser ignores.
struct MultipartHeaderGuard {
    struct NonASCIIHeaderName: Error {}

    private enum State {
        /// In the preamble or a body, looking for `\n--BOUNDARY`.
        case content
        /// Right after `--BOUNDARY`: `--` here closes the body.
        case afterDelimiter(dashes: Int)
        /// The rest of a delimiter line, up to its line feed.
        case delimiterLine
        case headerLineStart
        case headerName
        case headerValue
        /// After the closing delimiter: ignored.
        case epilogue
    }

    private let delimiter: [UInt8]
    private var state = State.content
    /// How much of ``delimiter`` the last bytes matched; the body's start counts as a line feed.
    private var matched = 1

    init(boundary: String) {
        self.delimiter = Array("\n--\(boundary)".utf8)
    }

    mutating func inspect(_ bytes: some Sequence<UInt8>) throws {
        for byte in bytes {
            try self.step(byte)
        }
    }

    private mutating func step(_ byte: UInt8) throws {
        switch self.state {
        case .content:
            if byte == self.delimiter[self.matched] {
                self.matched += 1
                if self.matched == self.delimiter.count {
                    self.matched = 0
                    self.state = .afterDelimiter(dashes: 0)
                }
            } else {
                self.matched = byte == UInt8(ascii: "\n") ? 1 : 0
            }
        case .afterDelimiter(let dashes):
            if byte == UInt8(ascii: "-") {
                self.state = dashes == 1 ? .epilogue : .afterDelimiter(dashes: dashes + 1)
            } else {
                self.state = byte == UInt8(ascii: "\n") ? .headerLineStart : .delimiterLine
            }
        case .delimiterLine:
            if byte == UInt8(ascii: "\n") { self.state = .headerLineStart }
        case .headerLineStart:
            if byte == UInt8(ascii: "\n") {
                self.state = .content
                self.matched = 1
            } else if byte != UInt8(ascii: "\r") {
                self.state = .headerName
                try self.step(byte)
            }
        case .headerName:
            guard byte < 0x80 else { throw NonASCIIHeaderName() }
            if byte == UInt8(ascii: ":") { self.state = .headerValue }
            if byte == UInt8(ascii: "\n") { self.state = .headerLineStart }
        case .headerValue:
            if byte == UInt8(ascii: "\n") { self.state = .headerLineStart }
        case .epilogue:
            break
        }
    }
}
