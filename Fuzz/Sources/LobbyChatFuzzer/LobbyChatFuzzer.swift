import ChatProtocol
import FuzzSupport

/// Input: the text of one `/chat` WebSocket frame (the socket handler passes on only UTF-8).
///
/// Decodes it with the server's limit (4096 bytes) and with a tiny one, and checks that an accepted message is
/// within the limit, not blank and free of control bytes, that a name obeys ``TutorialName``, and that the tiny limit
/// accepts nothing the large one refuses or decodes differently.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLobbyChat(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    guard let text = input.restAsText else { return 0 }
    let server = LobbyChatDecoder(maxMessageBytes: 4096).decode(text)
    let tiny = LobbyChatDecoder(maxMessageBytes: 8).decode(text)
    for (limit, result) in [(4096, server), (8, tiny)] {
        guard case .success(let message) = result else { continue }
        invariant(message.message.utf8.count <= limit, "\(message.message.utf8.count) bytes accepted, limit \(limit)")
        invariant(!message.message.allSatisfy(\.isWhitespace), "blank message accepted")
        invariant(
            !message.message.utf8.contains { ($0 < 0x20 && !(0x09...0x0D).contains($0)) || $0 == 0x7F },
            "message \(message.message.debugDescription) holds a control byte")
        if let user = message.user {
            invariant(TutorialName.normalized(user) == user, "user \(user.debugDescription) is not a valid name")
        }
    }
    if case .success(let small) = tiny {
        invariant(server == .success(small), "limit 8 accepts \(small), limit 4096 gives \(server)")
    }
    return 0
}
