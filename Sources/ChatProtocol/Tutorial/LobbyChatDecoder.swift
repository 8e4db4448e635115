import Foundation

/// Turns one `/chat` text frame into a ``SubmittedChatMessage``, or says exactly why it cannot.
public struct LobbyChatDecoder: Sendable {
    /// Why a frame was rejected. The `description` is what the client sees in `{"error": …}`.
    public enum Rejection: Error, Equatable, Sendable, CustomStringConvertible {
        case notJSON
        case missingMessage
        case emptyMessage
        case messageTooLong(limit: Int)
        case invalidUser

        public var description: String {
            switch self {
            case .notJSON: "frame is not a JSON object"
            case .missingMessage: "frame has no string field \"message\""
            case .emptyMessage: "message is empty"
            case .messageTooLong(let limit): "message is longer than \(limit) bytes"
            case .invalidUser: "user: \(TutorialName.rule)"
            }
        }
    }

    /// The largest accepted `message`, in UTF-8 bytes.
    public var maxMessageBytes: Int

    /// Creates a decoder that accepts messages up to `maxMessageBytes` UTF-8 bytes.
    public init(maxMessageBytes: Int) {
        self.maxMessageBytes = maxMessageBytes
    }

    /// Decodes and validates one frame's text.
    ///
    /// Only `message` is required. A `user` or `userID` of the wrong type is ignored rather than rejected,
    /// so the tutorial's first stage (which sends `message` alone) and sloppy clients still get through.
    public func decode(_ text: String) -> Result<SubmittedChatMessage, Rejection> {
        guard let fields = LobbyChatFields.read(text) else {
            return .failure(.notJSON)
        }
        guard let raw = fields.message else {
            return .failure(.missingMessage)
        }
        let message = MessageText.removingControlCharacters(raw)
        if message.allSatisfy(\.isWhitespace) {
            return .failure(.emptyMessage)
        }
        if message.utf8.count > self.maxMessageBytes {
            return .failure(.messageTooLong(limit: self.maxMessageBytes))
        }
        // A blank name means a guest, as if none was sent; any other name must follow the shared rule.
        var user: String?
        if let raw = fields.user, !raw.allSatisfy(\.isWhitespace) {
            guard let name = TutorialName.normalized(raw) else { return .failure(.invalidUser) }
            user = name
        }
        return .success(
            SubmittedChatMessage(message: message, user: user, userID: fields.userID.flatMap(UUID.init(uuidString:))))
    }
}
