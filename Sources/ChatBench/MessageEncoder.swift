import Foundation
import NIOCore

/// Builds one sender's frames: `/chat`'s `{"message":…,"user":…,"userID":…}`, or the modern protocol's
/// `{"type":"send","room":…,"clientMsgID":…,"text":…}` (PROTOCOL.md §8.3).
///
/// Every message's text is `bench:<run>:<sender>:<sequence>:<sentNanos>:` padded with `x` to the requested
/// size, so a receiver can find this run's messages and their send time without decoding JSON. The greeting
/// that makes the server announce the sender (and, on the modern protocol, shows the sender's room is followed)
/// is `bench:<run>:hello`.
struct MessageEncoder {
    /// Sizes that hold the header (about 50 bytes at most) and that the server accepts.
    static let allowedTextBytes = 64...4096

    /// Room left in front of each payload so the WebSocket encoder can put the frame header there instead of
    /// writing it as a separate buffer.
    private static let frameHeaderRoom = 14

    private let marker: [UInt8]
    private let sender: UInt64
    private let textBytes: Int
    /// Before the text: `/chat`'s constant envelope, or the modern one up to the `clientMsgID`'s value.
    private let envelopePrefix: [UInt8]
    /// Modern only: between the `clientMsgID` and the text.
    private let textKey = Array(#"","text":""#.utf8)
    private let envelopeSuffix: [UInt8]
    private let modern: Bool
    private let allocator = ByteBufferAllocator()

    /// A `/chat` sender when `room` is nil, else a modern one sending into `room`.
    init(run: RunIdentity, sender: Int, textBytes: Int, room: String? = nil) {
        self.marker = run.marker
        self.sender = UInt64(sender)
        self.textBytes = textBytes
        if let room {
            self.modern = true
            // The run's id in it: a later run with the same accounts (`--accounts`) must not repeat an earlier
            // run's clientMsgIDs, which the server would answer as retries without delivering them again.
            self.envelopePrefix = Array(
                #"{"type":"send","room":"\#(room)","clientMsgID":"\#(run.id)-s\#(sender)-"#.utf8)
            self.envelopeSuffix = Array(#""}"#.utf8)
        } else {
            self.modern = false
            self.envelopePrefix = Array(#"{"message":""#.utf8)
            let user = "bench-\(run.id)-\(sender)"
            self.envelopeSuffix = Array(#"","user":"\#(user)","userID":"\#(UUID().uuidString)"}"#.utf8)
        }
    }

    func message(sequence: UInt64, sentNanos: UInt64) -> ByteBuffer {
        self.frame(id: sequence, padded: true) { buffer in
            buffer.writeBytes(self.marker)
            buffer.writeDecimal(self.sender)
            buffer.writeInteger(UInt8(ascii: ":"))
            buffer.writeDecimal(sequence)
            buffer.writeInteger(UInt8(ascii: ":"))
            buffer.writeDecimal(sentNanos)
            buffer.writeInteger(UInt8(ascii: ":"))
        }
    }

    func hello() -> ByteBuffer {
        self.frame(id: nil, padded: false) { buffer in
            buffer.writeBytes(self.marker)
            buffer.writeString("hello")
        }
    }

    /// Wraps the text written by `writeText` in the JSON envelope, padded with `x` to ``textBytes`` if asked. On
    /// the modern protocol the `clientMsgID` is `<run>-s<sender>-<id>`, or `<run>-s<sender>-hello` for the greeting.
    private func frame(id: UInt64?, padded: Bool, _ writeText: (inout ByteBuffer) -> Void) -> ByteBuffer {
        var buffer = self.allocator.buffer(
            capacity: Self.frameHeaderRoom + self.envelopePrefix.count + 32 + self.textBytes
                + self.envelopeSuffix.count)
        buffer.moveWriterIndex(forwardBy: Self.frameHeaderRoom)
        buffer.moveReaderIndex(forwardBy: Self.frameHeaderRoom)
        buffer.writeBytes(self.envelopePrefix)
        if self.modern {
            if let id { buffer.writeDecimal(id) } else { buffer.writeString("hello") }
            buffer.writeBytes(self.textKey)
        }
        let textStart = buffer.writerIndex
        writeText(&buffer)
        if padded {
            let written = buffer.writerIndex - textStart
            buffer.writeRepeatingByte(UInt8(ascii: "x"), count: max(0, self.textBytes - written))
        }
        buffer.writeBytes(self.envelopeSuffix)
        return buffer
    }
}

extension ByteBuffer {
    /// Writes `value` in decimal ASCII without building a `String`.
    fileprivate mutating func writeDecimal(_ value: UInt64) {
        var digits = 1
        var rest = value / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        self.writeRepeatingByte(UInt8(ascii: "0"), count: digits)
        var remaining = value
        var index = self.writerIndex - 1
        repeat {
            self.setInteger(UInt8(ascii: "0") + UInt8(remaining % 10), at: index)
            remaining /= 10
            index -= 1
        } while remaining > 0
    }
}
