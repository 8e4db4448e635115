/// Every route path the server answers, in one place.
enum Paths {
    /// The Vapor tutorial's WebSocket chat.
    static let chat = "chat"
    /// The gorilla/websocket relay, `/echo/?id=NAME`.
    static let echo = "echo"
    /// The modern HTTP API, `/api/v1/…`.
    static let api = ["api", "v1"]
    /// Uploads and downloads, `/api/v1/attachments/{id}`.
    static let attachments = "attachments"
    /// The echo relay's test page, under the web root.
    static let tools = "tools"
    /// Liveness probe for scripts and tests.
    static let health = "health"
}
