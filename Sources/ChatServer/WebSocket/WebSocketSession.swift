import NIOCore

/// A complete WebSocket message, after fragments are joined and text is checked to be UTF-8.
enum WebSocketMessage {
    /// A text message; the bytes are valid UTF-8 and `text` is their decoding.
    case text(String, bytes: ByteBuffer)
    case binary(ByteBuffer)
}

/// What one endpoint (`/chat`, `/echo`) does with one connection.
///
/// A session is created when the upgrade completes and every method is called on the connection's event loop,
/// so a session may keep plain mutable state. It hands anything shared to a room or relay, never awaits.
protocol WebSocketSession: AnyObject {
    func didReceive(_ message: WebSocketMessage)
    /// The connection is gone (closed by either side, reset, or dropped as too slow).
    func didClose()
}
