import Foundation
@testable import LayercastLoad
import Testing

@Suite struct LatencyHistogramTests {
    /// 90 durations of 1.5 ms in one histogram and 10 of 2 ms in another (both exact below
    /// 2.048 ms at 3 digits): merged, the 95th and 99th percentiles are 2 ms, where an average of
    /// the two p99s would say 1.75 ms.
    @Test func mergedPercentilesAreThoseOfAllTheDurations() {
        var first = LatencyHistogram(), second = LatencyHistogram()
        for _ in 0..<90 { first.record(seconds: 0.0015) }
        for _ in 0..<10 { second.record(seconds: 0.002) }
        var merged = first
        merged.add(second)
        #expect(merged.summary == LatencySummary(count: 100, p50: 1.5, p95: 2, p99: 2, max: 2))
        #expect(first.summary == LatencySummary(count: 90, p50: 1.5, p95: 1.5, p99: 1.5, max: 1.5))  // left alone

        var together = LatencyHistogram()
        for _ in 0..<90 { together.record(seconds: 0.0015) }
        for _ in 0..<10 { together.record(seconds: 0.002) }
        #expect(merged.summary == together.summary)
    }

    /// What a worker sends its parent: every bucket, the total and the exact largest value.
    @Test func encodingKeepsEveryBucketAndTheMaximum() throws {
        var histogram = LatencyHistogram()
        let micros: [UInt64] = [0, 1, 999, 2047, 2048, 50_000, 50_001, 123_457, 3_600_000_000]
        for value in micros { histogram.record(seconds: Double(value) / 1e6) }
        histogram.record(seconds: 0.123457)  // twice in one bucket
        let data = try JSONEncoder().encode(histogram)
        #expect(String(decoding: data, as: UTF8.self).hasPrefix(#""0:1 1:1 999:1 2047:1 2048:1 "#))
        let decoded = try JSONDecoder().decode(LatencyHistogram.self, from: data)
        #expect(decoded.count == 10)
        #expect(decoded.histogram.maxRecorded == 3_600_000_000)
        for value in micros { #expect(decoded.histogram.countForValue(value) == histogram.histogram.countForValue(value)) }
        #expect(decoded.histogram.countForValue(123_457) == 2)
        #expect(decoded.summary == histogram.summary)
    }

    @Test func theLargestValueStaysExactWhenItsBucketIsWide() throws {
        var histogram = LatencyHistogram()
        histogram.record(seconds: 0.123457)  // 123,457 µs lies in a bucket 64 µs wide
        let decoded = try JSONDecoder().decode(LatencyHistogram.self, from: JSONEncoder().encode(histogram))
        #expect(decoded.summary.max == 123.457)
    }

    @Test func malformedBucketsAreRefused() {
        for text in [#""1""#, #""1:2:3""#, #""x:1""#, #""3600000001:1""#, "[[1,1]]"] {
            #expect(throws: DecodingError.self, "\(text)") { try JSONDecoder().decode(LatencyHistogram.self, from: Data(text.utf8)) }
        }
        let empty = try? JSONDecoder().decode(LatencyHistogram.self, from: JSONEncoder().encode(LatencyHistogram()))
        #expect(empty?.count == 0)
    }
}
