import LayercastJSON
import LayercastLoad
import Testing

@Suite struct LatencySummaryTests {
    @Test func millisecondsKeepThreeSignificantDigits() {
        #expect(LatencySummary.milliseconds(0.1234) == "0.123 ms")
        #expect(LatencySummary.milliseconds(1.234) == "1.23 ms")
        #expect(LatencySummary.milliseconds(12.34) == "12.3 ms")
        #expect(LatencySummary.milliseconds(123.4) == "123 ms")
        #expect(LatencySummary.milliseconds(1234) == "1234 ms")
    }

    @Test func textAndJSON() {
        let summary = LatencySummary(count: 42, p50: 1.5, p95: 4.25, p99: 12.5, max: 130)
        #expect(summary.text == "p50 1.50 ms  p95 4.25 ms  p99 12.5 ms  max 130 ms  (n=42)")
        #expect(summary.json == ["count": 42, "p50": 1.5, "p95": 4.25, "p99": 12.5, "max": 130])
    }

    @Test func emptySummaryHasNoPercentiles() {
        let summary = LatencyHistogram().summary
        #expect(summary.text == "none")
        #expect(summary.json == ["count": 0, "p50": .null, "p95": .null, "p99": .null, "max": .null])
    }

    @Test func histogramPercentilesOfOneToAHundredMilliseconds() {
        var histogram = LatencyHistogram()
        for ms in 1...100 { histogram.record(seconds: Double(ms) / 1000) }
        let summary = histogram.summary
        // The k-th percentile of 1…100 ms is k ms; HdrHistogram (3 digits) reports the top of the
        // value's bucket, within 0.1% of it.
        #expect(summary.count == 100)
        #expect(abs(summary.p50 - 50) <= 0.05)
        #expect(abs(summary.p95 - 95) <= 0.095)
        #expect(abs(summary.p99 - 99) <= 0.099)
        #expect(summary.max == 100)
    }

    @Test func negativeDurationsCountAsZero() {
        var histogram = LatencyHistogram()
        histogram.record(seconds: -0.5)
        #expect(histogram.count == 1)
        #expect(histogram.summary.max == 0)
    }
}
