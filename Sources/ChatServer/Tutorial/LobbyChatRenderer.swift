import ChatCore
import ChatProtocol
import NIOCore
import NIOWebSocket

/// Renders lobby events as the `/chat` protocol's `ReceivingChatMessage` JSON, each as a complete WebSocket text
/// frame ready to be shared by every `/chat` connection.
final class LobbyChatRenderer: EventRenderer {
    /// Whether joins and leaves appear as messages from ``TutorialIdentity/server``.
    let announceJoins: Bool

    private static let allocator = ByteBufferAllocator()

    let tutorialText: TutorialText

    init(announceJoins: Bool, tutorialText: TutorialText) {
        self.announceJoins = announceJoins
        self.tutorialText = tutorialText
    }

    func render(_ event: RoomEvent) -> ByteBuffer? {
        let message: ReceivingChatMessage
        switch event {
        case .message(let stored):
            guard let text = self.tutorialText.text(of: stored) else { return nil }
            message = ReceivingChatMessage(
                date: stored.date, id: stored.id, message: text, user: stored.sender.name, userID: stored.sender.id)
        case .resumed, .receipt, .typing:
            return nil
        case .presence(let change):
            guard self.announceJoins else { return nil }
            let verb = change.kind == .joined ? "joined" : "left"
            message = ReceivingChatMessage(
                date: change.date, id: change.id, message: "\(change.name) has \(verb) the chat",
                user: TutorialIdentity.server.name, userID: TutorialIdentity.server.id)
        }
        // What a default `JSONEncoder` writes (`date` in seconds since 2001, UUIDs in upper case), keys sorted.
        guard let json = message.json() else { return nil }
        return WebSocketFrameBytes.frame(opcode: .text, payload: ByteBuffer(bytes: json), allocator: Self.allocator)
    }
}
