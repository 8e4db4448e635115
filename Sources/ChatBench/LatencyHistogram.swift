/// A log-linear histogram of nanosecond latencies: fixed size, no allocation per sample, at most 1/64 (1.6 %)
/// relative error.
///
/// Values below 128 have a bucket each; above, every power of two is split into 64 equal buckets.
struct LatencyHistogram {
    private var counts: [UInt64]
    private(set) var count: UInt64 = 0
    private(set) var maximum: UInt64 = 0

    init() {
        self.counts = Array(repeating: 0, count: Self.bucketIndex(of: .max) + 1)
    }

    /// Adds another histogram's samples (another process's, in a spread run).
    mutating func merge(_ other: LatencyHistogram) {
        for index in self.counts.indices { self.counts[index] += other.counts[index] }
        self.count += other.count
        self.maximum = max(self.maximum, other.maximum)
    }

    mutating func record(_ value: UInt64) {
        self.counts[Self.bucketIndex(of: value)] += 1
        self.count += 1
        self.maximum = max(self.maximum, value)
    }

    /// The value below which a fraction `quantile` of the samples lie (the middle of its bucket), or nil when
    /// there are no samples.
    func value(atQuantile quantile: Double) -> UInt64? {
        guard self.count > 0 else { return nil }
        let rank = max(1, UInt64((quantile * Double(self.count)).rounded(.up)))
        var seen: UInt64 = 0
        for (index, count) in self.counts.enumerated() where count > 0 {
            seen += count
            if seen >= rank {
                let bucket = Self.bucketRange(of: index)
                return min(bucket.lowerBound + (bucket.upperBound - bucket.lowerBound) / 2, self.maximum)
            }
        }
        return self.maximum
    }

    private static func bucketIndex(of value: UInt64) -> Int {
        guard value >= 128 else { return Int(value) }
        // The top 7 significant bits (64...127) pick the bucket within the value's power of two.
        let shift = (63 - value.leadingZeroBitCount) - 6
        return 64 * shift + Int(value >> UInt64(shift))
    }

    private static func bucketRange(of index: Int) -> ClosedRange<UInt64> {
        guard index >= 128 else { return UInt64(index)...UInt64(index) }
        let shift = UInt64(index / 64 - 1)
        let lower = UInt64(index % 64 + 64) << shift
        return lower...(lower + ((1 << shift) - 1))
    }
}

extension LatencyHistogram: Codable {
    /// Only the buckets that hold samples, as `[index, count]` pairs.
    private enum CodingKeys: String, CodingKey { case buckets, maximum }

    init(from decoder: any Decoder) throws {
        self.init()
        let container = try decoder.container(keyedBy: CodingKeys.self)
        for pair in try container.decode([[UInt64]].self, forKey: .buckets) {
            guard pair.count == 2, pair[0] < self.counts.count else {
                throw DecodingError.dataCorruptedError(
                    forKey: .buckets, in: container, debugDescription: "not an [index, count] pair")
            }
            self.counts[Int(pair[0])] = pair[1]
            self.count += pair[1]
        }
        self.maximum = try container.decode(UInt64.self, forKey: .maximum)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        let buckets = self.counts.indices.filter { self.counts[$0] > 0 }.map { [UInt64($0), self.counts[$0]] }
        try container.encode(buckets, forKey: .buckets)
        try container.encode(self.maximum, forKey: .maximum)
    }
}
