/// Every route path the server answers, in one place.
enum Paths {
    /// The Vapor tutorial's WebSocket chat.
    static let chat = "chat"
    /// The gorilla/websocket relay, `/echo/?id=NAME`.
    static let echo = "echo"
    /// Liveness probe for scripts and tests.
    static let health = "health"
}
