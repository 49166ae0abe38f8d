@testable import LayercastLoad
import Testing

@Suite struct TimelineChartTests {
    /// 4 s wide, values up to 40: the y axis tops at 50, x = 56 + 182·s, y = 192 − 3.28·value.
    private func chart(_ points: [(x: Double, y: Double?)], name: String = "p99", markers: [TimelineChart.Marker] = []) -> TimelineChart {
        TimelineChart(id: "frame-age", title: "Frame age (ms)", seconds: 4, series: [.init(name: name, points: points)], markers: markers)
    }

    @Test func aKnownSeriesIsDrawnAtItsPointsAndBreaksWhereAValueIsMissing() {
        let svg = chart([(1, 10), (2, 20), (3, nil), (4, 40)]).svg
        #expect(svg.contains("<polyline fill=\"none\" points=\"238.0,159.2 420.0,126.4\"/>"))
        // The point after the gap stands alone: a dot, not a line.
        #expect(svg.contains("<circle cx=\"784.0\" cy=\"60.8\" r=\"2\"/>"))
        #expect(svg.components(separatedBy: "<polyline").count == 2)
        #expect(!svg.contains("no data"))
    }

    @Test func theAxesAreLabelledFromZeroToARoundMaximum() {
        let svg = chart([(1, 10), (4, 40)]).svg
        for label in ["0", "25", "50"] { #expect(svg.contains("text-anchor=\"end\">\(label)</text>")) }
        for second in 0...4 { #expect(svg.contains(">\(second) s</text>")) }
        #expect(!svg.contains(">5 s</text>"))
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" data-chart=\"frame-age\""))
        #expect(svg.hasSuffix("</svg>"))
    }

    @Test func roundingUpGoesToOneTwoOrFiveTimesAPowerOfTen() {
        #expect([0, 1, 1.5, 3, 7, 120, 5000, -3, .nan, .infinity].map(TimelineChart.roundUp) == [1, 1, 2, 5, 10, 200, 5000, 1, 1, 1])
        #expect(abs(TimelineChart.roundUp(0.03) - 0.05) < 1e-12)
    }

    @Test func emptyAndNotFiniteSeriesDrawNothingButSaySo() {
        for points: [(x: Double, y: Double?)] in [[], [(1, nil), (2, .nan), (3, .infinity)]] {
            let svg = chart(points).svg
            #expect(!svg.contains("<polyline") && !svg.contains("<circle"))
            #expect(svg.contains(">no data</text>"))
            #expect(svg.contains("text-anchor=\"end\">1</text>"))  // the axis still stands, 0 to 1
        }
        // NaN between values breaks the line like a missing one.
        let runs = TimelineChart.runs([(1, 1), (2, .nan), (3, 3), (4, 4)])
        #expect(runs.map { $0.map(\.x) } == [[1], [3, 4]])
    }

    @Test func markersAreDrawnWithTheirNamesEscapedAndOnlyInsideTheRun() {
        let markers: [TimelineChart.Marker] = [
            .init(kind: .stage, x: 1, until: 2, name: "ramp"),
            .init(kind: .mark, x: 3, name: "kill <node-2> & \"co\""),
            .init(kind: .mark, x: 9, name: "after the end"),
        ]
        let svg = chart([(1, 1)], name: "a<b", markers: markers).svg
        #expect(svg.contains("<g class=\"marker stage\" data-name=\"ramp\"><rect x=\"238.0\" y=\"28.0\" width=\"182.0\" height=\"164.0\"/>"
                             + "<line x1=\"238.0\" y1=\"28.0\" x2=\"238.0\" y2=\"192.0\"/><text x=\"241.0\" y=\"38.0\">ramp</text></g>"))
        #expect(svg.contains("data-name=\"kill &lt;node-2&gt; &amp; &quot;co&quot;\""))
        #expect(svg.contains(">kill &lt;node-2&gt; &amp; &quot;co&quot;</text>"))
        #expect(!svg.contains("<node-2>") && !svg.contains("after the end"))
        #expect(svg.contains("data-series=\"a&lt;b\"") && !svg.contains("a<b"))
    }

    @Test func htmlTextEscapesTheFiveSpecialCharactersOnly() {
        #expect(HTMLText.escape("a<b>&\"c\" 'd' → é") == "a&lt;b&gt;&amp;&quot;c&quot; &#39;d&#39; → é")
    }
}
