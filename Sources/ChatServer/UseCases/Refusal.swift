import ChatProtocol

/// A use case's "no" for a reason the caller can fix or wait out: a stable code for programs and a message for
/// people. Each transport shows it in its own shape (an HTTP status with the PROTOCOL.md §6.1 body, an error frame).
/// A database failure is never a refusal: it stays the store's error, and the transport answers `unavailable`.
struct Refusal: Error {
    enum Kind: Sendable {
        /// The request is wrong: a bad name, kind or value (HTTP 400).
        case invalid
        /// The request names an account that does not exist (HTTP 404).
        case unknownUser
        /// The caller may not do this, though the room is theirs to see (HTTP 403).
        case notAllowed
        /// Too many attempts lately; `retryAfter` whole seconds to wait (HTTP 429).
        case rateLimited(ServerMetrics.RateLimitKind, retryAfter: Int)
    }

    let kind: Kind
    let code: ErrorCode
    let message: String

    static func invalid(_ code: ErrorCode, _ message: String) -> Refusal {
        Refusal(kind: .invalid, code: code, message: message)
    }

    /// `message` ends with "try again in" and gets the seconds.
    static func rateLimited(_ limit: ServerMetrics.RateLimitKind, _ message: String, _ wait: Duration) -> Refusal {
        let seconds = Int(wait.components.seconds) + 1
        return Refusal(
            kind: .rateLimited(limit, retryAfter: seconds), code: .rateLimited, message: "\(message) \(seconds) s.")
    }

    static func unknownUser(_ username: String) -> Refusal {
        Refusal(kind: .unknownUser, code: .unknownUser, message: "No user is called \(username).")
    }
}
