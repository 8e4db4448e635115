import ChatServer

/// Restarting a server as a client sees it: the same address, the same accounts and messages.
extension TestServer {
    /// A new server on this one's ports and data directory; call after ``stop()``. Clients that reconnect to
    /// the old address reach it, and tokens and messages from before are still there.
    public func startAgain(_ configure: (inout ServerConfiguration) -> Void = { _ in }) async throws -> TestServer {
        try await TestServer.start(dataDirectory: self.configuration.dataDirectory) {
            configure(&$0)
            $0.port = self.httpPort
            $0.tcpPort = self.tcpPort
        }
    }
}
