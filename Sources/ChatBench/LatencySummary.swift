/// The latency percentiles of a run, in milliseconds; nil when nothing was delivered.
struct LatencySummary: Sendable {
    let p50: Double?
    let p99: Double?
    let p999: Double?
    let max: Double?

    init(_ histogram: LatencyHistogram) {
        func milliseconds(_ nanoseconds: UInt64?) -> Double? {
            nanoseconds.map { Double($0) / 1e6 }
        }
        self.p50 = milliseconds(histogram.value(atQuantile: 0.5))
        self.p99 = milliseconds(histogram.value(atQuantile: 0.99))
        self.p999 = milliseconds(histogram.value(atQuantile: 0.999))
        self.max = milliseconds(histogram.count > 0 ? histogram.maximum : nil)
    }
}
