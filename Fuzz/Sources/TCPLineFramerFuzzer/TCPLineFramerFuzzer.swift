import ChatProtocol
import FuzzSupport
import NIOCore

/// Input: a line limit byte, a chunk size byte, then the TCP stream.
///
/// Checks that the stream gives the same frames however it is split into reads, that those frames are what the
/// framing rule in the type's documentation says (``expectedFrames(_:limit:)``), and that no line is empty, holds
/// a `\n` or is longer than the limit. Small limits (1–64) reach the edge cases that the server's 4096 has too.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTCPLineFramer(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let limit = Int(input.takeByte() % 64) + 1
    let readSize = Int(input.takeByte())
    let stream = input.rest

    var framer = TCPLineFramer(maxLineBytes: limit)
    var frames: [TCPLineFramer.Frame] = []
    for piece in pieces(of: stream, size: readSize) {
        frames += framer.append(ByteBuffer(bytes: piece))
    }
    if let last = framer.flushPendingLine() { frames.append(last) }
    invariant(!framer.hasPendingBytes, "bytes left after a flush")

    var whole = TCPLineFramer(maxLineBytes: limit)
    var wholeFrames = whole.append(ByteBuffer(bytes: stream))
    if let last = whole.flushPendingLine() { wholeFrames.append(last) }
    invariant(frames == wholeFrames, "reads of \(readSize) bytes give \(frames), one read gives \(wholeFrames)")

    for frame in frames {
        guard case .line(let line) = frame else { continue }
        invariant(!line.isEmpty, "an empty line")
        invariant(line.utf8.count <= limit, "a line of \(line.utf8.count) bytes over the limit \(limit)")
        invariant(!line.utf8.contains(UInt8(ascii: "\n")), "a line holding \\n")
    }
    invariant(
        frames == expectedFrames(stream, limit: limit),
        "framed \(frames), expected \(expectedFrames(stream, limit: limit))")
    return 0
}

/// The rule, applied to a whole stream at once: lines end at `\n` (one `\r` before it is dropped), the unterminated
/// rest counts as a line when flushed, blank lines are skipped, longer than `limit` is overlong, and a line must be
/// UTF-8.
private func expectedFrames(_ stream: [UInt8], limit: Int) -> [TCPLineFramer.Frame] {
    stream.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).compactMap { raw in
        let line = raw.last == UInt8(ascii: "\r") ? raw.dropLast() : raw
        if line.isEmpty { return nil }
        if line.count > limit { return .overlong }
        return String(validating: line, as: UTF8.self).map(TCPLineFramer.Frame.line) ?? .invalidUTF8
    }
}
