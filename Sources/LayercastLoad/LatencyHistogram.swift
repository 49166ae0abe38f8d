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
