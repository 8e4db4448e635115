/// Where a ``ChatClient``'s connection stands. Every change is also delivered as ``ChatEvent/state(_:)``.
public enum ConnectionState: Sendable, Equatable, CustomStringConvertible {
    /// `connect()` has not been called yet.
    case idle
    /// Opening the WebSocket (attempt 0 is the first one, later numbers are reconnections).
    case connecting(attempt: Int)
    /// The server said `hello` and the client resumed every room: live events flow and sends go out at once.
    case connected
    /// The connection is down; the client will try again after `delay`. Sends are queued meanwhile.
    case waitingToReconnect(attempt: Int, delay: Duration)
    /// The server refused the session; the client does not retry. Sign in again.
    case failed(ChatClientError)
    /// `stop()` was called.
    case stopped

    /// Whether sends go out at once.
    public var isConnected: Bool { self == .connected }

    /// A short text for a status line.
    public var description: String {
        switch self {
        case .idle: "not connected"
        case .connecting(let attempt): attempt == 0 ? "connecting…" : "reconnecting (attempt \(attempt))…"
        case .connected: "connected"
        case .waitingToReconnect(let attempt, let delay):
            "offline; retrying in \(Self.seconds(delay)) (attempt \(attempt))"
        case .failed(let error): "disconnected: \(error)"
        case .stopped: "stopped"
        }
    }

    private static func seconds(_ duration: Duration) -> String {
        let milliseconds = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        return milliseconds < 1000 ? "\(milliseconds) ms" : "\(milliseconds / 1000) s"
    }
}
