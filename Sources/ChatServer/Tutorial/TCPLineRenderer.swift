import ChatCore
import ChatProtocol
import NIOCore

/// Renders lobby events as lines of the DogeChat TCP protocol.
final class TCPLineRenderer: EventRenderer {
    let tutorialText: TutorialText

    init(tutorialText: TutorialText) {
        self.tutorialText = tutorialText
    }

    func render(_ event: RoomEvent) -> ByteBuffer? {
        switch event {
        case .message(let message):
            self.tutorialText.text(of: message).map {
                ByteBuffer(string: TCPLine.message(from: message.sender.name, text: $0))
            }
        case .presence(let change):
            ByteBuffer(string: change.kind == .joined ? TCPLine.joined(change.name) : TCPLine.left(change.name))
        case .resumed, .receipt, .typing:
            nil
        }
    }
}
