import FuzzSupport
import NIOCore
import NIOEmbedded
import NIOWebSocket

/// Input: a flags byte (bit 0: `/echo`'s 16 MiB limit instead of the 64 KiB of `/chat` and `/api/v1/ws`), a read
/// size byte, then the bytes a client sends after the upgrade.
///
/// Runs them through the pipeline the server's upgrader installs (NIO's `WebSocketFrameDecoder` with the server's
/// `maxFrameSize` and its protocol-error handler) and validates each text payload as UTF-8 the way
/// `WebSocketConnectionHandler` does. Checks that no frame is over the limit or larger than the bytes sent, that
/// frames do not depend on how the bytes were split into reads, and that the UTF-8 check accepts exactly what
/// decodes to the same bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebSocketFrames(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let maxFrameSize = input.takeByte() & 1 == 1 ? 16 * 1024 * 1024 : 65536
    let readSize = Int(input.takeByte())
    let stream = input.rest

    let frames = decode(stream, readSize: readSize, maxFrameSize: maxFrameSize)
    let wholeFrames = decode(stream, readSize: 0, maxFrameSize: maxFrameSize)
    invariant(frames == wholeFrames, "reads of \(readSize) bytes give \(frames), one read gives \(wholeFrames)")

    var total = 0
    for frame in frames.frames {
        let payload = frame.unmaskedData
        total += payload.readableBytes
        invariant(payload.readableBytes <= maxFrameSize, "a frame of \(payload.readableBytes) bytes")
        guard frame.opcode == .text else { continue }
        let text = payload.withUnsafeReadableBytes {
            String(validating: $0.assumingMemoryBound(to: UInt8.self), as: UTF8.self)
        }
        let bytes = Array(payload.readableBytesView)
        invariant(
            (text != nil) == (Array(String(decoding: bytes, as: UTF8.self).utf8) == bytes), "UTF-8 check of \(bytes)")
        if let text { invariant(Array(text.utf8) == bytes, "text does not round-trip") }
    }
    invariant(total <= stream.count, "\(total) payload bytes from \(stream.count) sent")
    return 0
}

/// What the decoder produced from `stream`, and whether it stopped on a protocol error.
private struct Decoded: Equatable {
    var frames: [WebSocketFrame] = []
    var failed = false
}

private func decode(_ stream: [UInt8], readSize: Int, maxFrameSize: Int) -> Decoded {
    let channel = EmbeddedChannel()
    var result = Decoded()
    do {
        try channel.pipeline.syncOperations.addHandlers([
            ByteToMessageHandler(WebSocketFrameDecoder(maxFrameSize: maxFrameSize)),
            WebSocketProtocolErrorHandler(),
        ])
        for piece in pieces(of: stream, size: readSize) {
            try channel.writeInbound(ByteBuffer(bytes: piece))
            while let frame = try channel.readInbound(as: WebSocketFrame.self) { result.frames.append(frame) }
        }
    } catch {
        // Frames decoded before the error in the same read are already waiting.
        result.failed = true
        while let frame = (try? channel.readInbound(as: WebSocketFrame.self)) ?? nil { result.frames.append(frame) }
    }
    // The protocol-error handler closes the channel; the close completes (and the pipeline lets go of its handlers)
    // only when the loop runs.
    channel.embeddedEventLoop.run()
    _ = try? channel.finish()
    return result
}
