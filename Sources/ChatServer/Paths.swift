/// The paths the server answers outside the modern API (whose routes are ChatProtocol's `APIRoute`).
enum Paths {
    /// The Vapor tutorial's WebSocket chat.
    static let chat = "chat"
    /// The gorilla/websocket relay, `/echo/?id=NAME`.
    static let echo = "echo"
    /// The echo relay's test page, under the web root.
    static let tools = "tools"
    /// Liveness probe for scripts and tests.
    static let health = "health"
}
