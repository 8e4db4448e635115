import ChatCore
import ChatProtocol
import ChatUseCases
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
            Self.frame(MessageFrame(message.payload, clientMsgID: message.clientMsgID))
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
    /// Frames sent by the thousand (messages, presence) write their own JSON (``WritesOwnJSON``); the rest go
    /// through `JSONEncoder`.
    static func frame(_ value: some Encodable) -> ByteBuffer? {
        let json: [UInt8]
        if let writer = value as? any WritesOwnJSON {
            json = writer.json()
        } else {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            guard let encoded = try? encoder.encode(value) else { return nil }
            json = Array(encoded)
        }
        return WebSocketFrameBytes.frame(opcode: .text, payload: ByteBuffer(bytes: json), allocator: Self.allocator)
    }
}
