import NIOCore

/// Counts and times the frames every client receives. Confined to the generator's event loop.
final class DeliveryRecorder {
    private let marker: [UInt8]
    private var measuredFrom: UInt64 = .max
    private var measuredUntil: UInt64 = .max
    private(set) var latencies = LatencyHistogram()
    /// Receptions of messages sent inside the measured window.
    private(set) var deliveries = 0
    private(set) var hellos = 0
    private(set) var resumed = 0
    private(set) var frames = 0
    private(set) var errorFrames = 0

    init(marker: [UInt8]) {
        self.marker = marker
    }

    /// From now on, receptions of messages sent in `from..<until` (monotonic nanoseconds) are deliveries.
    func measure(from: UInt64, until: UInt64) {
        self.measuredFrom = from
        self.measuredUntil = until
    }

    func receive(_ payload: ByteBuffer) {
        self.frames += 1
        switch payload.withUnsafeReadableBytes({ BenchFrame($0, marker: self.marker) }) {
        case .message(let sentNanos):
            guard sentNanos >= self.measuredFrom, sentNanos < self.measuredUntil else { return }
            let now = Monotonic.now
            self.deliveries += 1
            self.latencies.record(now > sentNanos ? now - sentNanos : 0)
        case .hello:
            self.hellos += 1
        case .error:
            self.errorFrames += 1
        case .resumed:
            self.resumed += 1
        case .other:
            break
        }
    }
}
