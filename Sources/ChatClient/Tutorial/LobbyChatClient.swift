import ChatProtocol
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOWebSocket
import WebSocketKit

/// What a ``LobbyChatClient`` receives.
public enum LobbyChatEvent: Sendable, Equatable {
    /// A lobby message (history first, then live), announcements included (`user` is `SwiftChat`).
    case message(ReceivingChatMessage)
    /// The server refused the last frame (PROTOCOL.md §1.6); the connection stays open.
    case rejected(String)
    /// A frame that is neither a message nor an error; the connection goes on.
    case malformed(String)
    /// The connection closed.
    case closed
}

/// A client of `/chat`, the Vapor SwiftUI tutorial's JSON protocol (PROTOCOL.md §1), as the tutorial's app
/// speaks it: `{"message","user","userID"}` out, `{"date","id","message","user","userID"}` in.
public final class LobbyChatClient: Sendable {
    /// Everything received, in order; ends after ``LobbyChatEvent/closed``.
    public let events: AsyncStream<LobbyChatEvent>
    /// The name sent with every message (`nil` sends as a guest).
    public let user: String?
    /// The id sent with every message.
    public let userID: UUID
    private let socket: WebSocket

    private init(events: AsyncStream<LobbyChatEvent>, socket: WebSocket, user: String?, userID: UUID) {
        self.events = events
        self.socket = socket
        self.user = user
        self.userID = userID
    }

    /// Connects to a `/chat` URL such as `ws://127.0.0.1:8080/chat`. The server sends the recent history at once.
    public static func connect(
        to url: String, user: String?, userID: UUID = UUID(),
        eventLoops: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) async throws -> LobbyChatClient {
        let (events, continuation) = AsyncStream.makeStream(of: LobbyChatEvent.self, bufferingPolicy: .unbounded)
        let socket: WebSocket
        do {
            socket = try await WebSocket.open(url: url, configuration: .init(), on: eventLoops) { socket in
                socket.onText { _, text in continuation.yield(Self.decode(text)) }
                socket.onBinary { _, _ in continuation.yield(.malformed("<binary frame>")) }
                socket.onClose.whenComplete { _ in
                    continuation.yield(.closed)
                    continuation.finish()
                }
            }
        } catch WebSocketClient.Error.invalidResponseStatus(let head) {
            throw ChatClientError.unexpectedResponse(status: Int(head.status.code), body: head.status.reasonPhrase)
        } catch WebSocketClient.Error.invalidURL {
            throw ChatClientError.invalidAddress(url)
        } catch {
            throw ChatClientError.unreachable(String(describing: error))
        }
        return LobbyChatClient(events: events, socket: socket, user: user, userID: userID)
    }

    /// Decodes one frame: a message, an error, or neither.
    public static func decode(_ text: String) -> LobbyChatEvent {
        let data = Data(text.utf8)
        if let message = try? JSONDecoder().decode(ReceivingChatMessage.self, from: data) { return .message(message) }
        if let error = try? JSONDecoder().decode(LobbyChatError.self, from: data) { return .rejected(error.error) }
        return .malformed(text)
    }

    /// Sends one message under this client's name and id.
    public func send(_ message: String) async throws {
        let frame = SubmittedChatMessage(
            message: message, user: self.user, userID: self.user == nil ? nil : self.userID)
        let data = try JSONEncoder().encode(frame)
        try await self.socket.send(String(decoding: data, as: UTF8.self))
    }

    /// Closes the connection (1000).
    public func close() async {
        try? await self.socket.close(code: .normalClosure)
    }
}
