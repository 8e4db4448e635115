import ChatCore
import ChatProtocol
import Foundation
import NIOCore
import NIOWebSocket

/// Renders room events as the modern protocol's frames (`message`, `resumed`, `receipt`, `typing`), each a complete
/// WebSocket text frame. The lobby's join and leave announcements are for the tutorial clients only: modern
/// clients get `presence` frames from the ``PresenceTracker`` instead.
final class ModernRenderer: EventRenderer {
    private static let allocator = ByteBufferAllocator()

    func render(_ event: RoomEvent) -> ByteBuffer? {
        switch event {
        case .message(let message):
            WebSocketFrameBytes.frame(
                opcode: .text,
                payload: ByteBuffer(bytes: MessageFrame(message.payload, clientMsgID: message.clientMsgID).json()),
                allocator: Self.allocator)
        case .resumed(let room, let latestSeq, let complete):
            Self.frame(ResumedFrame(room: room.rawValue, latestSeq: latestSeq, complete: complete))
        case .receipt(let room, let user, let seq):
            Self.frame(ReceiptFrame(room: room.rawValue, user: user, seq: seq))
        case .typing(let room, let user):
            Self.frame(TypingFrame(room: room.rawValue, user: user.payload))
        case .presence:
            nil
        }
    }

    /// Any modern frame as WebSocket bytes.
    static func frame(_ value: some Encodable) -> ByteBuffer? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        guard let json = try? encoder.encode(value) else { return nil }
        return WebSocketFrameBytes.frame(opcode: .text, payload: ByteBuffer(bytes: json), allocator: Self.allocator)
    }
}
