import NIOCore
import NIOWebSocket

/// Cuts a client's bytes into WebSocket frames (RFC 6455 §5.2) for ``WebSocketConnectionHandler``, where NIO's
/// `ByteToMessageHandler(WebSocketFrameDecoder)` would be a handler of its own: its object, two buffers of queued
/// messages and its pipeline context were half a KiB of every idle connection (BENCHMARKS.md, "Idle memory").
///
/// It checks what the frame's header alone tells, as NIO's decoder does: a frame longer than the limit fails with
/// ``Failure/tooLarge`` (close 1009) as soon as its length is read, a fragmented or long control frame with
/// ``Failure/malformedControlFrame`` (1002). A frame is handed on only when all of it has arrived; the bytes of one
/// not yet whole are kept, and nothing is kept between frames, so an idle connection holds no buffer.
struct WebSocketFrameParser {
    enum Failure: Error {
        /// The frame's length is over the limit.
        case tooLarge
        /// A control frame that is fragmented or carries more than 125 bytes.
        case malformedControlFrame
    }

    private let maxFrameBytes: Int
    /// The start of a frame not yet whole.
    private var partial: ByteBuffer?

    init(maxFrameBytes: Int) {
        self.maxFrameBytes = maxFrameBytes
    }

    /// Calls `handle` with every frame these bytes complete, in order, while it returns `true`.
    ///
    /// The bytes of a frame not yet whole are kept from their first byte only (`discardReadBytes`), and taken out
    /// of `partial` before more are appended, so that the buffer has one owner and grows in place: a client whose
    /// reads always end inside a frame costs the bytes of that one frame, not of everything it sent, and a large
    /// frame arriving in many reads is copied once per doubling, not once per read.
    mutating func parse(
        _ bytes: ByteBuffer, _ handle: (WebSocketFrame) throws -> Bool
    ) throws {
        var buffer: ByteBuffer
        if var partial = self.partial.take() {
            var incoming = bytes
            partial.writeBuffer(&incoming)
            buffer = partial
        } else {
            buffer = bytes
        }
        while let frame = try Self.frame(from: &buffer, maxFrameBytes: self.maxFrameBytes) {
            guard try handle(frame) else { return }
        }
        if buffer.readableBytes > 0 {
            buffer.discardReadBytes()
            self.partial = buffer
        }
    }

    /// The frame at the start of `buffer`, which it then skips, or `nil` (and `buffer` untouched) until it is whole.
    private static func frame(from buffer: inout ByteBuffer, maxFrameBytes: Int) throws(Failure) -> WebSocketFrame? {
        let start = buffer.readerIndex
        guard let first = buffer.getInteger(at: start, as: UInt8.self),
            let second = buffer.getInteger(at: start + 1, as: UInt8.self)
        else { return nil }
        var offset = start + 2
        var length = Int(second & 0x7F)
        if length == 126 {
            guard let extended = buffer.getInteger(at: offset, as: UInt16.self) else { return nil }
            length = Int(extended)
            offset += 2
        } else if length == 127 {
            guard let extended = buffer.getInteger(at: offset, as: UInt64.self) else { return nil }
            guard extended <= UInt64(maxFrameBytes) else { throw .tooLarge }
            length = Int(extended)
            offset += 8
        }
        guard length <= maxFrameBytes else { throw .tooLarge }
        let fin = first & 0x80 != 0
        let opcode = first & 0x0F
        if opcode & 0x08 != 0, !fin || length > 125 { throw .malformedControlFrame }
        var maskKey: WebSocketMaskingKey?
        if second & 0x80 != 0 {
            guard let key = buffer.getBytes(at: offset, length: 4) else { return nil }
            maskKey = WebSocketMaskingKey(key)
            offset += 4
        }
        guard let data = buffer.getSlice(at: offset, length: length),
            let decodedOpcode = WebSocketOpcode(encodedWebSocketOpcode: opcode)
        else { return nil }
        buffer.moveReaderIndex(to: offset + length)
        return WebSocketFrame(
            fin: fin, rsv1: first & 0x40 != 0, rsv2: first & 0x20 != 0, rsv3: first & 0x10 != 0,
            opcode: decodedOpcode, maskKey: maskKey, data: data)
    }
}
