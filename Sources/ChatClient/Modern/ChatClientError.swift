import ChatProtocol
import Foundation

/// Everything that can go wrong for a client of SwiftChat, in a form a program can decide on.
public enum ChatClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server could not be reached: nothing listens, the name does not resolve, the connection broke.
    case unreachable(String)
    /// `/api/v1` answered with its error body (PROTOCOL.md §6.1): `code` is stable, `message` is for people.
    case server(status: Int, code: ErrorCode, message: String)
    /// An answer that is not what a SwiftChat server sends (not a SwiftChat server, or a proxy in the way).
    case unexpectedResponse(status: Int, body: String)
    /// The server refused the token: it is unknown, expired or revoked. Sign in again.
    case unauthorized
    /// The server refused one frame (an `error` frame, PROTOCOL.md §8.6 and §9.2), such as `forbidden` or `too_long`.
    case rejected(code: ErrorCode, message: String)
    /// A frame from the server that could not be decoded; the connection goes on.
    case malformedFrame(String, reason: String)
    /// The client was stopped before the answer arrived.
    case stopped
    /// The call needs a session: register or log in first.
    case notSignedIn
    /// The text is not a server address this client understands.
    case invalidAddress(String)

    /// The protocol error code, when the server gave one.
    public var code: ErrorCode? {
        switch self {
        case .server(_, let code, _), .rejected(let code, _): code
        case .unauthorized: .unauthorized
        default: nil
        }
    }

    /// One line for people.
    public var description: String {
        switch self {
        case .unreachable(let reason): "cannot reach the server: \(reason)"
        case .server(let status, let code, let message): "\(message) (\(code.rawValue), HTTP \(status))"
        case .unexpectedResponse(let status, let body):
            "unexpected answer from the server (HTTP \(status)): \(body.prefix(200))"
        case .unauthorized: "the server refused the session token; sign in again"
        case .rejected(let code, let message): "\(message) (\(code.rawValue))"
        case .malformedFrame(let text, let reason): "malformed frame from the server (\(reason)): \(text.prefix(200))"
        case .stopped: "the client was stopped"
        case .notSignedIn: "not signed in"
        case .invalidAddress(let text): "not a server address: \(text)"
        }
    }

    /// Whether the same request may succeed later without any change (the network, rate limits, a busy database).
    public var isTransient: Bool {
        switch self {
        case .unreachable: true
        case .rejected(let code, _), .server(_, let code, _): code == .rateLimited || code == .unavailable
        default: false
        }
    }
}
