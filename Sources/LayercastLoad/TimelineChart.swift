import Foundation

/// One chart of the HTML report as inline SVG, a pure function of its input: series of values
/// over the run's seconds as polylines (broken where a value is missing or not finite), a y axis
/// from 0 to a round maximum, an x axis in seconds, and vertical markers with their names.
struct TimelineChart {
    struct Series {
        var name: String
        /// (seconds from the start, value); a nil or non-finite value breaks the line.
        var points: [(x: Double, y: Double?)]
    }

    /// A stage (a band from `x` to `until` with a line at its start) or a mark (a line).
    struct Marker {
        enum Kind: String { case stage, mark }
        var kind: Kind
        var x: Double
        var until: Double?
        var name: String
    }

    /// Names the SVG (`data-chart`, and its title's id); made of letters, digits and `-`.
    var id: String
    var title: String
    /// The x axis runs from 0 to this many seconds (at least 1).
    var seconds: Double
    var series: [Series]
    var markers: [Marker] = []

    static let width = 800.0, height = 220.0
    static let left = 56.0, right = 16.0, top = 28.0, bottom = 28.0
    static let plotWidth = width - left - right, plotHeight = height - top - bottom
    /// The series' colours, in turn.
    static let colours = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd"]

    /// The y axis' top: the largest finite value rounded up to 1, 2 or 5 × 10ⁿ (1 when there is none or it is 0).
    var yMaximum: Double {
        let largest = series.flatMap { $0.points.compactMap(\.y) }.filter(\.isFinite).max() ?? 0
        return Self.roundUp(largest)
    }

    static func roundUp(_ value: Double) -> Double {
        guard value > 0, value.isFinite else { return 1 }
        let power = pow(10, (log10(value)).rounded(.down))
        let fraction = value / power
        let step: Double = fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10
        return step * power
    }

    /// The SVG element.
    var svg: String {
        let span = max(seconds, 1), yTop = yMaximum
        func px(_ x: Double) -> Double { Self.left + min(max(x, 0), span) / span * Self.plotWidth }
        func py(_ y: Double) -> Double { Self.top + Self.plotHeight - min(max(y, 0), yTop) / yTop * Self.plotHeight }
        let titleID = HTMLText.escape(id) + "-title"
        var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" data-chart=\"\(HTMLText.escape(id))\" "
            + "viewBox=\"0 0 \(Self.f(Self.width)) \(Self.f(Self.height))\" width=\"\(Self.f(Self.width))\" height=\"\(Self.f(Self.height))\" "
            + "role=\"img\" aria-labelledby=\"\(titleID)\">\n"
        out += "<title id=\"\(titleID)\">\(HTMLText.escape(title))</title>\n"
        out += "<text class=\"chart-title\" x=\"\(Self.f(Self.left))\" y=\"18\">\(HTMLText.escape(title))</text>\n"
        // The y axis: 0, half and the top, with grid lines.
        out += "<g class=\"axis y\">"
        for tick in [0, yTop / 2, yTop] {
            out += "<line x1=\"\(Self.f(Self.left))\" y1=\"\(Self.f(py(tick)))\" x2=\"\(Self.f(Self.width - Self.right))\" y2=\"\(Self.f(py(tick)))\"/>"
            out += "<text x=\"\(Self.f(Self.left - 6))\" y=\"\(Self.f(py(tick) + 4))\" text-anchor=\"end\">\(Self.label(tick))</text>"
        }
        out += "</g>\n<g class=\"axis x\">"
        let step = Self.roundUp(span / 6)
        for index in 0...Int((span / step + 1e-9).rounded(.down)) {
            let tick = Double(index) * step
            out += "<line x1=\"\(Self.f(px(tick)))\" y1=\"\(Self.f(Self.top + Self.plotHeight))\" x2=\"\(Self.f(px(tick)))\" y2=\"\(Self.f(Self.top + Self.plotHeight + 4))\"/>"
            out += "<text x=\"\(Self.f(px(tick)))\" y=\"\(Self.f(Self.height - 8))\" text-anchor=\"middle\">\(Self.label(tick)) s</text>"
        }
        out += "</g>\n"
        for marker in markers where (0...span).contains(marker.x) {
            out += "<g class=\"marker \(marker.kind.rawValue)\" data-name=\"\(HTMLText.escape(marker.name))\">"
            if let until = marker.until, until > marker.x {
                out += "<rect x=\"\(Self.f(px(marker.x)))\" y=\"\(Self.f(Self.top))\" width=\"\(Self.f(px(until) - px(marker.x)))\" height=\"\(Self.f(Self.plotHeight))\"/>"
            }
            let labelY = Self.top + (marker.kind == .stage ? 10 : 22)
            out += "<line x1=\"\(Self.f(px(marker.x)))\" y1=\"\(Self.f(Self.top))\" x2=\"\(Self.f(px(marker.x)))\" y2=\"\(Self.f(Self.top + Self.plotHeight))\"/>"
            out += "<text x=\"\(Self.f(px(marker.x) + 3))\" y=\"\(Self.f(labelY))\">\(HTMLText.escape(marker.name))</text></g>\n"
        }
        var anyPoint = false
        for (index, line) in series.enumerated() {
            let colour = Self.colours[index % Self.colours.count]
            out += "<g class=\"series\" data-series=\"\(HTMLText.escape(line.name))\" stroke=\"\(colour)\" fill=\"\(colour)\">"
            for run in Self.runs(line.points) {
                anyPoint = true
                let points = run.map { "\(Self.f(px($0.x))),\(Self.f(py($0.y)))" }
                if run.count == 1 {
                    out += "<circle cx=\"\(Self.f(px(run[0].x)))\" cy=\"\(Self.f(py(run[0].y)))\" r=\"2\"/>"
                } else {
                    out += "<polyline fill=\"none\" points=\"\(points.joined(separator: " "))\"/>"
                }
            }
            // The legend entry, above the plot on the right.
            let legendX = Self.width - Self.right - Double(series.count - index) * 120
            out += "<text class=\"legend\" x=\"\(Self.f(legendX))\" y=\"18\">\(HTMLText.escape(line.name))</text></g>\n"
        }
        if !anyPoint {
            out += "<text class=\"no-data\" x=\"\(Self.f(Self.left + Self.plotWidth / 2))\" y=\"\(Self.f(Self.top + Self.plotHeight / 2))\" text-anchor=\"middle\">no data</text>\n"
        }
        return out + "</svg>"
    }

    /// The unbroken stretches of `points`: consecutive points with finite values.
    static func runs(_ points: [(x: Double, y: Double?)]) -> [[(x: Double, y: Double)]] {
        var runs: [[(x: Double, y: Double)]] = [], current: [(x: Double, y: Double)] = []
        for point in points {
            if let y = point.y, y.isFinite, point.x.isFinite {
                current.append((point.x, y))
            } else if !current.isEmpty {
                runs.append(current)
                current = []
            }
        }
        if !current.isEmpty { runs.append(current) }
        return runs
    }

    /// A coordinate: one decimal.
    static func f(_ x: Double) -> String { String(format: "%.1f", x) }

    /// An axis label: whole numbers as such, else up to three significant digits (`0.25`, `2.5`).
    static func label(_ x: Double) -> String {
        x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(format: "%.3g", x)
    }
}
