import Histogram

/// Durations recorded in whole microseconds in an HdrHistogram (3 significant digits, up to one
/// hour); negative durations count as 0 and longer ones as one hour.
public struct LatencyHistogram: Sendable {
    /// One hour in microseconds: no run lasts longer (`--duration` ≤ 3600 s).
    static let highestMicroseconds: UInt64 = 3_600_000_000

    private(set) var histogram = Histogram<UInt64>(highestTrackableValue: highestMicroseconds, numberOfSignificantValueDigits: .three)

    public init() {}

    /// Records `seconds`.
    public mutating func record(seconds: Double) {
        let micros = (seconds * 1e6).rounded()
        let clamped = micros.isFinite ? min(max(micros, 0), Double(Self.highestMicroseconds)) : Double(Self.highestMicroseconds)
        histogram.record(UInt64(clamped))
    }

    /// Adds every count of `other` (HdrHistogram's `add`: the merged percentiles are those of
    /// all the durations together, never an average of percentiles).
    public mutating func add(_ other: LatencyHistogram) { histogram.add(other.histogram) }

    public mutating func reset() { histogram.reset() }

    public var count: Int { Int(histogram.totalCount) }

    /// The percentiles of the report.
    public var summary: LatencySummary {
        guard count > 0 else { return LatencySummary(count: 0, p50: 0, p95: 0, p99: 0, max: 0) }
        func ms(_ micros: UInt64) -> Double { Double(micros) / 1000 }
        return LatencySummary(count: count, p50: ms(histogram.valueAtPercentile(50)), p95: ms(histogram.valueAtPercentile(95)),
                              p99: ms(histogram.valueAtPercentile(99)), max: ms(histogram.maxRecorded))
    }
}

/// Encoded as one string of its non-empty buckets, `"microseconds:count microseconds:count …"`:
/// decoding records each count at a value of its bucket, so every bucket, the total and the
/// largest value recorded come back exactly (how a worker hands its histograms to the parent,
/// docs/loadtest.md). One string, not an array of pairs: a second's frame ages fill thousands of
/// buckets, and Codable's cost per array element is what a worker would spend most on.
extension LatencyHistogram: Codable {
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        for bucket in text.split(separator: " ") {
            let parts = bucket.split(separator: ":")
            guard parts.count == 2, let micros = UInt64(parts[0]), let count = UInt64(parts[1]), micros <= Self.highestMicroseconds else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "a bucket is microseconds:count"))
            }
            histogram.record(micros, count: count)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        let largest = histogram.maxRecorded
        var text = ""
        for bucket in histogram.recordedValues() {
            // The bucket holding the largest value is written at that value, so that it stays the maximum.
            let micros = histogram.valuesAreEquivalent(bucket.value, largest) ? largest : histogram.lowestEquivalentForValue(bucket.value)
            if !text.isEmpty { text += " " }
            text += "\(micros):\(bucket.count)"
        }
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}
