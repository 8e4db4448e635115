import ChatCore
import Foundation
import Logging
import Metrics
import NIOCore
import NIOWebSocket

/// The sending side of one WebSocket connection; thread-safe to hold, used on its event loop.
///
/// Room events arrive already framed (see ``WebSocketFrameBytes``) and go out through a ``RawFrameWriter``: one
/// shared buffer per event for all connections, one write each. Every other frame (pongs, pings, close frames) is
/// framed here and goes the same way: the pipeline has no frame encoder.
///
/// Its outbound queue is bounded by the channel's write-buffer high-water mark: a write that finds the channel
/// unwritable (more than the bound already waiting) closes the connection with 1008 instead of queueing more,
/// so a client that stops reading costs the server at most that bound and slows nobody else.
final class WebSocketConnection: EventSink {
    let channel: any Channel
    let renderer: any EventRenderer
    /// The signed-in account, for modern connections.
    let accountID: UUID?
    /// The endpoint's open-connection gauge and slow-consumer counters.
    let metrics: ConnectionMetrics
    /// Logs with `conn`, `proto` and `user`.
    let log: ConnectionLogger
    private let rawWriter: NIOLoopBound<RawFrameWriter>

    var eventLoop: any EventLoop { self.channel.eventLoop }

    /// Call on the channel's event loop, once `rawWriter` is in the pipeline.
    init(
        channel: any Channel, renderer: any EventRenderer, rawWriter: RawFrameWriter, accountID: UUID?,
        metrics: ConnectionMetrics,
        log: ConnectionLogger
    ) {
        self.channel = channel
        self.renderer = renderer
        self.accountID = accountID
        self.metrics = metrics
        self.log = log
        self.rawWriter = NIOLoopBound(rawWriter, eventLoop: channel.eventLoop)
    }

    /// Whether a close frame has been sent: nothing more is written after it. (Kept by the writer, which lives on
    /// the event loop anyway: a box of its own would cost every connection an allocation.)
    var isClosing: Bool { self.rawWriter.value.closing }

    /// Queues a frame rendered by ``renderer`` (header included).
    func write(_ frame: ByteBuffer) {
        guard self.admitWrite() else { return }
        self.rawWriter.value.write(frame)
    }

    func flush() {
        self.rawWriter.value.flush()
    }

    /// Queues one unfragmented message; call ``flush()`` after a batch. The payload is not copied: the header
    /// goes out as a separate buffer (the relay forwards messages of megabytes).
    func send(_ payload: ByteBuffer, opcode: WebSocketOpcode) {
        guard self.admitWrite() else { return }
        self.rawWriter.value.write(
            WebSocketFrameBytes.header(opcode: opcode, length: payload.readableBytes, allocator: self.channel.allocator)
        )
        self.rawWriter.value.write(payload)
    }

    /// Sends a pong at once; the future completes when it reached the socket (or failed), so the caller can count
    /// the pongs a peer has not taken yet.
    func sendPong(_ payload: ByteBuffer) -> EventLoopFuture<Void> {
        guard self.admitWrite() else { return self.eventLoop.makeSucceededVoidFuture() }
        let promise = self.eventLoop.makePromise(of: Void.self)
        self.rawWriter.value.write(
            WebSocketFrameBytes.header(opcode: .pong, length: payload.readableBytes, allocator: self.channel.allocator))
        self.rawWriter.value.write(payload, promise: promise)
        self.flush()
        return promise.futureResult
    }

    /// Sends a control frame (a ping) at once.
    func sendControl(_ opcode: WebSocketOpcode, payload: ByteBuffer) {
        self.send(payload, opcode: opcode)
        self.flush()
    }

    /// Whether another message may be queued: not after a close frame, and not past the bound, where the client
    /// is dropped with 1008 instead.
    private func admitWrite() -> Bool {
        guard !self.isClosing else { return false }
        guard self.channel.isWritable else {
            self.evict(.outboundQueueFull, reason: "client is not reading fast enough")
            return false
        }
        return true
    }

    /// Drops a client that does not keep up, with 1008: counted, and logged at `notice` (an operator acts on many).
    func evict(_ cause: ServerMetrics.EvictionReason, reason: String) {
        guard !self.isClosing else { return }
        self.metrics.evicted(cause, log: self.log)
        self.close(.policyViolation, reason: reason, waitForPeer: false)
    }

    /// Sends a close frame once. With `waitForPeer` the TCP connection stays open for the peer's close frame
    /// (at most ``closeHandshakeTimeout``); without, it is closed as soon as the frame is written, as RFC 6455
    /// asks when the connection is failed.
    func close(_ code: WebSocketErrorCode, reason: String = "", waitForPeer: Bool) {
        guard !self.isClosing else { return }
        self.rawWriter.value.closing = true
        var payload = self.channel.allocator.buffer(capacity: 2 + reason.utf8.count)
        payload.write(webSocketErrorCode: code)
        payload.writeString(reason)
        let frame = WebSocketFrameBytes.frame(
            opcode: .connectionClose, payload: payload, allocator: self.channel.allocator)
        let channel = self.channel
        let written = self.eventLoop.makePromise(of: Void.self)
        self.rawWriter.value.write(frame, promise: written)
        self.flush()
        if waitForPeer {
            channel.eventLoop.scheduleTask(in: Self.closeHandshakeTimeout) { channel.close(promise: nil) }
        } else {
            // A failed connection reads nothing more: a flood must not go on being read (and answered) meanwhile.
            try? channel.syncOptions?.setOption(.autoRead, value: false)
            written.futureResult.whenComplete { _ in channel.close(promise: nil) }
            // A peer that is not reading may never take the frame: do not wait for it for ever.
            channel.eventLoop.scheduleTask(in: Self.closeHandshakeTimeout) { channel.close(promise: nil) }
        }
    }

    /// Closes with 4001 because the token the connection was opened with was revoked or expired: the client
    /// must sign in again (PROTOCOL.md §6.3). Call from anywhere.
    func closeForRevokedToken() {
        self.eventLoop.execute {
            self.close(Self.tokenRevoked, reason: "token revoked or expired; sign in again", waitForPeer: false)
        }
    }

    /// The close code of ``closeForRevokedToken()``.
    static let tokenRevoked = WebSocketErrorCode(codeNumber: 4001)

    /// Closes with 4003: an administrator deactivated the account (PROTOCOL.md §10.2).
    func closeForDeactivatedAccount() {
        self.eventLoop.execute {
            self.close(
                Self.accountDisabled, reason: "account_disabled: deactivated by an administrator", waitForPeer: false)
        }
    }

    /// The close code of ``closeForDeactivatedAccount()``.
    static let accountDisabled = WebSocketErrorCode(codeNumber: 4003)

    /// How long a close handshake may take before the TCP connection is closed anyway.
    static let closeHandshakeTimeout = TimeAmount.seconds(2)
}
