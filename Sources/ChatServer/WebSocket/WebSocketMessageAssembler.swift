import NIOCore
import NIOWebSocket

/// Joins the fragments of a WebSocket message into one frame, for ``WebSocketConnectionHandler``. A message over the
/// endpoint's byte limit, or in more than ``maxFragments(forMessageBytes:)`` fragments, fails the connection with
/// 1009.
///
/// NIO's `NIOWebSocketFrameAggregator` keeps every fragment as a frame of its own, each holding on to the read
/// buffer it came from, so a stream of empty continuation frames (6 bytes each on the wire) grew the server's
/// memory many times faster than the bytes sent without ever reaching the size limit. Here fragments are copied
/// into one buffer as they arrive, so memory is bounded by the byte limit alone, and the fragment count bounds
/// the work. An unfragmented message (the common case) passes through untouched.
///
/// A value inside the connection handler, not a handler of its own: an idle connection then costs no pipeline
/// context for it (BENCHMARKS.md, "Idle memory").
struct WebSocketMessageAssembler {
    /// One fragment per 64 bytes of the limit, and at least 64: a `/chat` message (64 KiB) may come in 1,024
    /// fragments, an `/echo` message (16 MiB) in 262,144 (Autobahn's case 9.5.1 sends 1 MiB in 16,384).
    static func maxFragments(forMessageBytes limit: Int) -> Int {
        max(64, limit / 64)
    }

    enum Failure: Error {
        /// The message's bytes and fragments are over the limit (close 1009).
        case messageTooLarge
        /// A continuation without a message started, or a new message before the last one ended (close 1002).
        case unexpectedFragment
    }

    private let maxMessageBytes: Int
    private let maxFragments: Int
    private var opcode: WebSocketOpcode?
    private var buffer: ByteBuffer?
    private var fragments = 0

    init(maxMessageBytes: Int) {
        self.maxMessageBytes = maxMessageBytes
        self.maxFragments = Self.maxFragments(forMessageBytes: maxMessageBytes)
    }

    /// The frame to handle now (a whole message, or a control frame, which may come between fragments), or `nil`
    /// while a message's fragments are still coming.
    mutating func take(_ frame: WebSocketFrame, allocator: ByteBufferAllocator) throws(Failure) -> WebSocketFrame? {
        switch frame.opcode {
        case .text, .binary:
            guard self.opcode == nil else { throw .unexpectedFragment }
            if frame.fin { return frame }
            self.opcode = frame.opcode
            self.buffer = allocator.buffer(capacity: frame.length)
            self.fragments = 0
            try self.append(frame)
            return nil
        case .continuation:
            guard let opcode = self.opcode else { throw .unexpectedFragment }
            try self.append(frame)
            guard frame.fin, let buffer = self.buffer else { return nil }
            self.opcode = nil
            self.buffer = nil
            return WebSocketFrame(fin: true, opcode: opcode, data: buffer)
        default:
            return frame
        }
    }

    private mutating func append(_ fragment: WebSocketFrame) throws(Failure) {
        self.fragments += 1
        guard self.fragments <= self.maxFragments,
            (self.buffer?.readableBytes ?? 0) + fragment.length <= self.maxMessageBytes
        else {
            self.buffer = nil
            throw .messageTooLarge
        }
        var payload = fragment.unmaskedData
        self.buffer?.writeBuffer(&payload)
    }
}
