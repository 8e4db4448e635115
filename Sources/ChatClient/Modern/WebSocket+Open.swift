import NIOCore
import WebSocketKit

extension WebSocket {
    /// Connects and returns the socket once `setup` has run on it. WebSocketKit may complete `connect`'s future
    /// before it calls `onUpgrade`, so the socket is handed over through a promise of its own.
    static func open(
        url: String, configuration: WebSocketClient.Configuration, on eventLoops: any EventLoopGroup,
        setup: @escaping @Sendable (WebSocket) -> Void
    ) async throws -> WebSocket {
        let opened = eventLoops.any().makePromise(of: WebSocket.self)
        WebSocket.connect(to: url, configuration: configuration, on: eventLoops) { socket in
            setup(socket)
            opened.succeed(socket)
        }.whenFailure { error in
            opened.fail(error)
        }
        return try await opened.futureResult.get()
    }
}
