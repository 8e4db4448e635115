import ChatProtocol
import FuzzSupport

/// Input: one TCP line, terminator removed (the framer hands over only UTF-8 lines).
///
/// Checks that a parsed name obeys ``TutorialName`` (and normalising it again changes nothing), that a message is not
/// blank and holds no control character that is not whitespace, and that what the server writes back to TCP
/// clients (`NAME has joined`, `NAME:TEXT`) is exactly one line.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTCPCommand(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    guard let line = input.restAsText else { return 0 }
    switch TCPCommand.parse(line) {
    case .success(.iam(let name)):
        invariant(TutorialName.normalized(name) == name, "name \(name.debugDescription) is not normalised")
        invariant(!name.isEmpty && name.utf8.count <= TutorialName.maxBytes, "name of \(name.utf8.count) bytes")
        invariant(!name.contains(":"), "name \(name.debugDescription) holds a colon")
        invariant(isOneLine(TCPLine.joined(name)), "join line \(TCPLine.joined(name).debugDescription)")
    case .success(.msg(let text)):
        invariant(!text.allSatisfy(\.isWhitespace), "blank message")
        invariant(
            !text.utf8.contains(where: isForbiddenControl), "message \(text.debugDescription) holds a control byte")
        let rendered = TCPLine.message(from: "fuzz", text: text)
        invariant(isOneLine(rendered), "message line \(rendered.debugDescription)")
    case .failure:
        break
    }
    return 0
}

/// C0 controls other than tab, LF, VT, FF and CR, and DEL: the server removes them from message text.
private func isForbiddenControl(_ byte: UInt8) -> Bool {
    (byte < 0x20 && !(0x09...0x0D).contains(byte)) || byte == 0x7F
}

/// Ends in its only `\n`, with no other character a terminal or client could take as a line break.
private func isOneLine(_ text: String) -> Bool {
    text.last == "\n" && !text.dropLast().contains(where: \.isNewline)
}
