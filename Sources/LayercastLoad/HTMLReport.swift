import Foundation

/// `--html FILE`: the report as one self-contained page — the final figures, the thresholds, the
/// marks and the timeline drawn as inline SVG (`TimelineChart`). No script and nothing loaded from
/// elsewhere (its Content-Security-Policy forbids it); every text is escaped.
public enum HTMLReport {
    /// The whole page.
    public static func page(_ report: LoadReport) -> String {
        let c = report.configuration
        let title = "layercast loadtest: " + (c.scenario.map { "scenario \($0.name ?? c.scenarioPath ?? "")" } ?? "\(c.clients) \(c.role.rawValue)s")
            + " of \(c.scene)/\(c.room)"
        var html = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
            <title>\(HTMLText.escape(title))</title>
            <style>
            body { font: 14px/1.4 system-ui, sans-serif; margin: 24px; color: #222; }
            table { border-collapse: collapse; margin-bottom: 16px; }
            th, td { text-align: left; padding: 2px 12px 2px 0; vertical-align: top; }
            .breached { color: #b00; font-weight: bold; }
            svg.chart { display: block; margin: 8px 0 16px; }
            svg.chart text { font: 11px system-ui, sans-serif; stroke: none; fill: #444; }
            svg.chart .series text { fill: inherit; }
            svg.chart .chart-title { font-weight: bold; }
            svg.chart .axis line { stroke: #ddd; }
            svg.chart polyline { stroke-width: 1.5; }
            svg.chart .marker.stage line { stroke: #888; stroke-dasharray: 4 3; }
            svg.chart .marker.stage rect { fill: #888; opacity: 0.08; }
            svg.chart .marker.mark line { stroke: #e67e00; stroke-width: 2; }
            svg.chart .marker.mark text { fill: #e67e00; }
            </style>
            </head>
            <body>
            <h1>\(HTMLText.escape(title))</h1>

            """
        html += "<h2>Summary</h2>\n" + table(summaryRows(report), classes: "summary")
        html += "<h2>Thresholds</h2>\n"
        if report.checks.isEmpty {
            html += "<p>None set.</p>\n"
        } else {
            html += "<table class=\"checks\"><tr><th>objective</th><th>limit</th><th>measured</th><th>result</th></tr>\n"
            for check in report.checks {
                let value = check.value.map(ServiceLevelObjectives.Check.format) ?? "nothing measured"
                html += "<tr\(check.breached ? " class=\"breached\"" : "")><td>\(HTMLText.escape(check.flag))</td>"
                    + "<td>\(ServiceLevelObjectives.Check.format(check.limit))</td><td>\(HTMLText.escape(value))</td>"
                    + "<td>\(check.breached ? "breached" : "ok")</td></tr>\n"
            }
            html += "</table>\n"
        }
        if !report.timeline.marks.isEmpty {
            html += "<h2>Marks</h2>\n" + table(report.timeline.marks.map { ("\(LoadReport.number($0.seconds, digits: 2)) s", $0.name) }, classes: "marks")
        }
        html += "<h2>Timeline</h2>\n"
        for chart in charts(report) { html += chart.svg + "\n" }
        return html + "</body>\n</html>\n"
    }

    /// The charts of the timeline: clients, frames/s, frame age, tap latency (when players tap),
    /// errors and reconnects; each with the stages and the marks.
    static func charts(_ report: LoadReport) -> [TimelineChart] {
        let points = report.timeline.points
        var markers: [TimelineChart.Marker] = []
        for (index, stage) in (report.configuration.scenario?.stages ?? []).enumerated() {
            markers.append(.init(kind: .stage, x: stage.start, until: stage.end, name: stage.name ?? "stage \(index + 1)"))
        }
        markers += report.timeline.marks.map { .init(kind: .mark, x: $0.seconds, name: $0.name) }
        func series(_ name: String, _ value: (LoadTimeline.Point) -> Double?) -> TimelineChart.Series {
            .init(name: name, points: points.map { ($0.second, value($0)) })
        }
        func chart(_ id: String, _ title: String, _ series: [TimelineChart.Series]) -> TimelineChart {
            TimelineChart(id: id, title: title, seconds: report.seconds, series: series, markers: markers)
        }
        var charts = [
            chart("clients", "Clients connected", [series("connected") { Double($0.connected) }]),
            chart("frames", "Frames received per second", [series("frames/s") { Double($0.frames) }]),
            chart("frame-age", "Frame age (ms)", [series("p50") { $0.frameAgeP50 }, series("p99") { $0.frameAgeP99 }]),
        ]
        if report.configuration.plan.populations.contains(where: { $0.role == .player }) {
            charts.append(chart("taps", "Tap → result latency (ms)", [series("p50") { $0.tapP50 }, series("p99") { $0.tapP99 }]))
        }
        charts.append(chart("errors", "Errors and reconnect attempts per second",
                            [series("errors") { Double($0.errors) }, series("reconnects") { Double($0.reconnects) }]))
        return charts
    }

    /// The run's final figures, as label and value.
    static func summaryRows(_ report: LoadReport) -> [(String, String)] {
        let s = report.stats, c = report.configuration
        let started = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: report.startedAt))
        var rows: [(String, String)] = [
            ("URL", report.url),
            ("scene / room", "\(c.scene) / \(c.room)"),
            ("run", "\(LoadReport.number(report.seconds)) s from \(started), \(c.clients) clients at most, \(c.workers > 1 ? "\(c.workers) workers × " : "")\(c.threads) thread\(c.threads == 1 ? "" : "s")"),
            ("result", report.passed ? "passed" : "breached"),
            ("connections", "made \(s.connected) of \(s.attempted) attempted, failed \(s.failed), closed early \(s.closedEarly)"),
            ("connect time", s.connectTime.summary.text),
            ("churn", "left \(s.left), rejoined \(s.rejoins)"),
            ("reconnects", "\(s.reconnects) attempted, \(s.reconnected) reconnected; time \(s.reconnectTime.summary.text); first frame \(s.reconnectFrameTime.summary.text)"),
            ("frames", "\(s.frames) received, \(LoadReport.number(report.framesPerClientSecond)) per client per second"),
            ("skipped", "\(s.skipped) (ratio \(LoadReport.number(report.skipRatio, digits: 4)))"),
            ("frame age", s.frameAge.summary.text),
        ]
        if c.plan.populations.contains(where: { $0.role == .player }) {
            let results = s.tapResults.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            rows.append(("taps", "\(s.tapsSent) sent, \(s.tapsAnswered) answered\(results.isEmpty ? "" : " (\(results))")"))
            rows.append(("tap → result", s.tapLatency.summary.text))
            rows.append(("awards", "\(s.awards) won, \(s.coins) coins"))
        }
        rows.append(("bytes", "\(s.bytesIn) in, \(s.bytesOut) out"))
        let errors = s.errors.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        rows.append(("errors", errors.isEmpty ? "none" : errors))
        if let server = report.server {
            rows.append(("server", "pid \(server.pid): CPU \(LoadReport.number(server.cpuSeconds)) s, peak RSS \(LoadReport.bytes(Double(server.peakResidentBytes)))"))
        }
        if let scenario = c.scenario {
            for (index, population) in scenario.populations.enumerated() where index < report.populations.count {
                let p = report.populations[index]
                rows.append(("population \(population.name)",
                             "\(population.behaviourText): made \(p.connected) of \(p.attempted), frames \(p.frames)\(population.acks ? " (\(p.acksSent) acked)" : ""), age \(p.frameAge.summary.text), reconnects \(p.reconnected) of \(p.reconnects), first frame \(p.reconnectFrameTime.summary.text)"))
            }
        }
        return rows
    }

    /// A two-column table, escaped.
    private static func table(_ rows: [(String, String)], classes: String) -> String {
        "<table class=\"\(classes)\">\n" + rows.map { "<tr><th>\(HTMLText.escape($0.0))</th><td>\(HTMLText.escape($0.1))</td></tr>\n" }.joined() + "</table>\n"
    }
}
