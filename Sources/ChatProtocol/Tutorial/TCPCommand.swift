/// One command of the DogeChat TCP text protocol: `iam:NAME` joins, `msg:TEXT` talks.
///
/// The whole text after the first colon is kept, colons included (the tutorial's Go server dropped
/// everything after a second colon; its iOS client still shows only the part after the last colon).
public enum TCPCommand: Equatable, Sendable {
    case iam(name: String)
    case msg(text: String)

    /// Why a line was not a command. The `description` is the reason sent back as `err:<reason>\n`.
    public enum Rejection: Error, Equatable, Sendable, CustomStringConvertible {
        case unknownCommand
        case invalidName
        case emptyMessage
        case notJoined
        case lineTooLong(limit: Int)
        case invalidUTF8
        /// Over the send rate limit; the message was dropped.
        case rateLimited(retryAfterSeconds: Int)
        /// The server holds too many connections (from this address, or in all).
        case tooManyConnections
        /// No `iam:` came in time; the connection is closed.
        case joinTimedOut
        /// The server is shutting down; the connection is closed.
        case serverRestarting

        public var description: String {
            switch self {
            case .unknownCommand: "unknown command, expected iam:NAME or msg:TEXT"
            case .invalidName: TutorialName.rule
            case .emptyMessage: "message is empty"
            case .notJoined: "send iam:NAME before msg:TEXT"
            case .lineTooLong(let limit): "line is longer than \(limit) bytes"
            case .invalidUTF8: "line is not valid UTF-8"
            case .rateLimited(let seconds): "too many messages; this one was dropped, wait \(seconds) s"
            case .tooManyConnections: "too many connections; try again later"
            case .joinTimedOut: "no iam:NAME in time; closing"
            case .serverRestarting: "server is restarting; reconnect"
            }
        }
    }

    /// Parses one complete line, its terminator already removed.
    public static func parse(_ line: String) -> Result<TCPCommand, Rejection> {
        if let name = line.dropPrefix("iam:") {
            guard let name = TutorialName.normalized(String(name)) else { return .failure(.invalidName) }
            return .success(.iam(name: name))
        }
        if let raw = line.dropPrefix("msg:") {
            let text = MessageText.removingControlCharacters(String(raw))
            guard !text.allSatisfy(\.isWhitespace) else { return .failure(.emptyMessage) }
            return .success(.msg(text: text))
        }
        return .failure(.unknownCommand)
    }
}

extension String {
    fileprivate func dropPrefix(_ prefix: String) -> Substring? {
        self.hasPrefix(prefix) ? self.dropFirst(prefix.count) : nil
    }
}
