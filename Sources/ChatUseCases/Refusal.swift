import ChatProtocol

/// A use case's "no" for a reason the caller can fix or wait out: a stable code for programs and a message for
/// people. Each transport shows it in its own shape (an HTTP status with the PROTOCOL.md §6.1 body, an error frame).
/// A database failure is never a refusal: it is ``StoreUnavailable``, and the transport answers `unavailable`.
public struct Refusal: Error {
    public enum Kind: Sendable, Equatable {
        /// The request is wrong: a bad name, kind or value (HTTP 400).
        case invalid
        /// The credentials given are wrong (HTTP 401).
        case wrongCredentials
        /// The caller may not do this, though the room is theirs to see (HTTP 403).
        case notAllowed
        /// The request names something that does not exist: an account, an invitation (HTTP 404).
        case notFound
        /// What the request would create exists already (HTTP 409).
        case conflict
        /// What was sent is more than is allowed (HTTP 413).
        case tooLarge
        /// What was sent is not of the type it says it is (HTTP 415).
        case wrongType
        /// Too many attempts lately; `retryAfter` whole seconds to wait (HTTP 429).
        case rateLimited(RateLimitKind, retryAfter: Int)
        /// The server has no room for the work now, though its database is fine; `retryAfter` whole seconds (HTTP
        /// 503 with the code `unavailable`).
        case busy(retryAfter: Int)
    }

    public let kind: Kind
    public let code: ErrorCode
    public let message: String

    public init(kind: Kind, code: ErrorCode, message: String) {
        self.kind = kind
        self.code = code
        self.message = message
    }

    public static func invalid(_ code: ErrorCode, _ message: String) -> Refusal {
        Refusal(kind: .invalid, code: code, message: message)
    }

    /// `message` ends with "try again in" and gets the seconds.
    public static func rateLimited(_ limit: RateLimitKind, _ message: String, _ wait: Duration) -> Refusal {
        let seconds = Int(wait.components.seconds) + 1
        return Refusal(
            kind: .rateLimited(limit, retryAfter: seconds), code: .rateLimited, message: "\(message) \(seconds) s.")
    }

    public static func unknownUser(_ username: String) -> Refusal {
        Refusal(kind: .notFound, code: .unknownUser, message: "No user is called \(username).")
    }
}
