import ChatCore
import ChatProtocol
import NIOCore

/// Renders lobby events as lines of the DogeChat TCP protocol.
final class TCPLineRenderer: EventRenderer {
    func render(_ event: RoomEvent) -> ByteBuffer? {
        switch event {
        case .message(let message):
            ByteBuffer(string: TCPLine.message(from: message.sender.name, text: message.text))
        case .presence(let change):
            ByteBuffer(string: change.kind == .joined ? TCPLine.joined(change.name) : TCPLine.left(change.name))
        case .resumed, .receipt:
            nil
        }
    }
}
