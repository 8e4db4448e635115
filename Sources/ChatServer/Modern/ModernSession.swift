import ChatCore
import ChatProtocol
import Foundation
import NIOCore
import NIOWebSocket

/// One connection to `/api/v1/ws`, on its event loop: decodes frames and hands them, in order, to the connection's
/// ``ModernWorker``, which does everything that needs to await (opening rooms, reading history).
final class ModernSession: WebSocketSession {
    private let connection: WebSocketConnection
    private let worker: ModernWorker
    private let frames: AsyncStream<ClientFrame>.Continuation
    private var keepalive: RepeatedTask?
    private var lastHeard = NIODeadline.now()

    init(connection: WebSocketConnection, context: ModernContext, account: Account, rooms: [RoomID]) {
        self.connection = connection
        let (stream, continuation) = AsyncStream.makeStream(of: ClientFrame.self)
        self.frames = continuation
        self.worker = ModernWorker(connection: connection, context: context, account: account, rooms: Set(rooms))
        let worker = self.worker
        context.background.run { await worker.run(stream) }
        Self.send(HelloFrame(user: account.profile, rooms: rooms.map(\.rawValue)), on: connection)
        self.startKeepalive(every: context.pingInterval)
    }

    func didReceive(_ message: WebSocketMessage) {
        self.lastHeard = .now()
        guard case .text(let text, _) = message else {
            Self.send(ErrorFrame(code: "bad_frame", message: "Frames are JSON text.", ref: nil), on: self.connection)
            return
        }
        guard let frame = try? JSONDecoder().decode(ClientFrame.self, from: Data(text.utf8)), frame.type != nil else {
            Self.send(ErrorFrame(code: "bad_frame", message: "A frame is a JSON object with a \"type\".", ref: nil), on: self.connection)
            return
        }
        if frame.type == "ping" {
            Self.send(["type": "pong"], on: self.connection)
            return
        }
        self.frames.yield(frame)
    }

    func didHearFromPeer() {
        self.lastHeard = .now()
    }

    func didClose() {
        self.keepalive?.cancel()
        self.frames.finish()
    }

    /// Pings every `interval`; a peer silent for two intervals (no frame, no pong) is dropped with 1001.
    private func startKeepalive(every interval: TimeAmount) {
        let connection = self.connection
        let loopBound = NIOLoopBound(self, eventLoop: connection.eventLoop)
        self.keepalive = connection.eventLoop.scheduleRepeatedTask(initialDelay: interval, delay: interval) { task in
            let session = loopBound.value
            if NIODeadline.now() - session.lastHeard > interval * 2 {
                connection.close(.goingAway, reason: "no answer to pings", waitForPeer: false)
                task.cancel()
            } else {
                connection.sendControl(.ping, payload: ByteBuffer(string: "keepalive"))
            }
        }
    }

    /// Writes one frame now (call on the connection's event loop).
    static func send(_ value: some Encodable, on connection: WebSocketConnection) {
        guard let frame = ModernRenderer.frame(value) else { return }
        connection.write(frame)
        connection.flush()
    }
}
