import ChatCore
import Logging
import NIOCore

/// The sending side of one TCP client. Like ``WebSocketConnection`` its queue is bounded by the channel's
/// high-water mark; a client that stops reading is disconnected.
final class TCPConnection: EventSink {
    let channel: any Channel
    let renderer: any EventRenderer
    private let metrics: ConnectionMetrics
    private let log: ConnectionLogger

    var eventLoop: any EventLoop { self.channel.eventLoop }

    init(channel: any Channel, renderer: any EventRenderer, metrics: ConnectionMetrics, log: ConnectionLogger) {
        self.channel = channel
        self.renderer = renderer
        self.metrics = metrics
        self.log = log
    }

    func write(_ payload: ByteBuffer) {
        guard self.channel.isWritable else {
            self.metrics.evicted(.outboundQueueFull, log: self.log)
            self.channel.close(promise: nil)
            return
        }
        self.channel.write(payload, promise: nil)
    }

    func flush() {
        self.channel.flush()
    }

    func send(_ line: String) {
        self.write(ByteBuffer(string: line))
        self.flush()
    }
}
