import Foundation
import LayercastJSON

/// Percentiles of a set of durations in milliseconds (HdrHistogram's values: each percentile is
/// the highest value equivalent to the recorded one, within 0.1%; `max` is the largest recorded).
public struct LatencySummary: Sendable, Equatable {
    public var count: Int
    public var p50: Double
    public var p95: Double
    public var p99: Double
    public var max: Double

    public init(count: Int, p50: Double, p95: Double, p99: Double, max: Double) {
        (self.count, self.p50, self.p95, self.p99, self.max) = (count, p50, p95, p99, max)
    }

    /// `p50 1.23 ms  p95 4.56 ms  p99 7.89 ms  max 12.3 ms  (n=42)`, or `none` when empty.
    public var text: String {
        guard count > 0 else { return "none" }
        return "p50 \(Self.milliseconds(p50))  p95 \(Self.milliseconds(p95))  p99 \(Self.milliseconds(p99))  max \(Self.milliseconds(max))  (n=\(count))"
    }

    /// `{"count":…,"p50":…,"p95":…,"p99":…,"max":…}` in milliseconds; percentiles null when empty.
    public var json: JSONValue {
        func value(_ x: Double) -> JSONValue { count > 0 ? .number((x * 1000).rounded() / 1000) : .null }
        return ["count": .number(Double(count)), "p50": value(p50), "p95": value(p95), "p99": value(p99), "max": value(max)]
    }

    /// Three significant digits, at least one decimal below 100: `0.123 ms`, `1.23 ms`, `12.3 ms`, `123 ms`.
    public static func milliseconds(_ value: Double) -> String {
        let digits = value < 1 ? 3 : value < 10 ? 2 : value < 100 ? 1 : 0
        return String(format: "%.\(digits)f ms", value)
    }
}
