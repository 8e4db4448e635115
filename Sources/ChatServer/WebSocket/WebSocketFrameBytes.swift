import NIOCore
import NIOWebSocket

/// Server-to-client WebSocket frames as bytes (RFC 6455 §5.2: FIN set, no mask).
///
/// A room renders each event once per wire format; for WebSocket formats that rendering is the whole frame, so
/// the same buffer goes to every connection and no connection encodes a header of its own.
enum WebSocketFrameBytes {
    /// The header of an unfragmented, unmasked frame carrying `length` payload bytes.
    static func header(opcode: WebSocketOpcode, length: Int, allocator: ByteBufferAllocator) -> ByteBuffer {
        var header = allocator.buffer(capacity: 10)
        Self.writeHeader(opcode: opcode, length: length, into: &header)
        return header
    }

    /// Header and payload in one buffer.
    static func frame(opcode: WebSocketOpcode, payload: ByteBuffer, allocator: ByteBufferAllocator) -> ByteBuffer {
        var payload = payload
        var frame = allocator.buffer(capacity: 10 + payload.readableBytes)
        Self.writeHeader(opcode: opcode, length: payload.readableBytes, into: &frame)
        frame.writeBuffer(&payload)
        return frame
    }

    private static func writeHeader(opcode: WebSocketOpcode, length: Int, into buffer: inout ByteBuffer) {
        buffer.writeInteger(0x80 | UInt8(webSocketOpcode: opcode))
        switch length {
        case ..<126:
            buffer.writeInteger(UInt8(length))
        case ..<65536:
            buffer.writeInteger(UInt8(126))
            buffer.writeInteger(UInt16(length))
        default:
            buffer.writeInteger(UInt8(127))
            buffer.writeInteger(UInt64(length))
        }
    }
}
