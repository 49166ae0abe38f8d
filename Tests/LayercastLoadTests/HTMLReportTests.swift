@testable import LayercastLoad
import Testing

@Suite struct HTMLReportTests {
    /// A second of `open` clients, `frames` frames aged `ageSeconds`, and the counts so far.
    private func sample(open: Int, errors: Int, reconnects: Int, frames: Int, ageSeconds: Double?) -> ProgressSample {
        var window = ProgressWindow()
        window.frames = frames
        if let ageSeconds { for _ in 0..<frames { window.frameAge.record(seconds: ageSeconds) } }
        return ProgressSample(open: open, errors: errors, reconnects: reconnects, window: window)
    }

    @Test func theTimelineKeepsOnePointASecondWithErrorsAndReconnectsPerSecond() {
        var timeline = LoadTimeline()
        timeline.add(sample(open: 5, errors: 1, reconnects: 0, frames: 100, ageSeconds: 0.010), at: 1)
        timeline.add(sample(open: 3, errors: 4, reconnects: 2, frames: 0, ageSeconds: nil), at: 2)
        #expect(timeline.points.map(\.connected) == [5, 3])
        #expect(timeline.points.map(\.frames) == [100, 0])
        #expect(timeline.points.map(\.errors) == [1, 3])
        #expect(timeline.points.map(\.reconnects) == [0, 2])
        #expect(timeline.points[0].frameAgeP99 == 10 && timeline.points[0].frameAgeP50 == 10)
        #expect(timeline.points[1].frameAgeP99 == nil && timeline.points[1].tapP99 == nil)
    }

    private func report(players: Bool) throws -> LoadReport {
        var configuration = LoadConfiguration(target: try LoadTarget(url: "ws://127.0.0.1:8080"))
        var spectators = Scenario.Population(name: "watch<ers>", size: .weight(1), role: .spectator)
        spectators.reconnect = true
        var populations = [spectators]
        if players { populations.append(Scenario.Population(name: "tappers", size: .count(2), role: .player)) }
        configuration.scenario = Scenario(name: "night & day", duration: 4, populations: populations,
                                          stages: [.init(name: "ramp", start: 0, end: 1, clients: 4), .init(name: nil, start: 3, end: 3, clients: 0)])
        configuration.duration = 4
        var stats = LoadStats()
        stats.connected = 4
        stats.attempted = 5
        stats.reconnects = 1
        stats.reconnected = 1
        stats.reconnectTime.record(seconds: 0.5)
        stats.reconnectFrameTime.record(seconds: 0.6)
        var report = LoadReport(configuration: configuration, url: "ws://127.0.0.1:8080/ws", seconds: 4, stats: stats, server: nil,
                                checks: [.init(flag: "watch<ers>.maxP99FrameAgeMs", limit: 50, value: 72.5)])
        report.populations = Array(repeating: LoadStats(), count: populations.count)
        for second in 1...4 { report.timeline.add(sample(open: second, errors: 0, reconnects: 0, frames: 30, ageSeconds: 0.02), at: Double(second)) }
        report.timeline.mark("kill <node-2>", at: 2.5)
        return report
    }

    @Test func thePageIsSelfContainedEscapedAndHasEveryChart() throws {
        let page = HTMLReport.page(try report(players: false))
        #expect(page.hasPrefix("<!DOCTYPE html>"))
        #expect(!page.contains("<script") && !page.contains("src=") && !page.contains("href=") && !page.contains("<link"))
        #expect(page.contains("content=\"default-src 'none'; style-src 'unsafe-inline'\""))
        #expect(page.contains("<title>layercast loadtest: scenario night &amp; day of radar/lobby</title>"))
        for chart in ["clients", "frames", "frame-age", "errors"] { #expect(page.contains("data-chart=\"\(chart)\"")) }
        #expect(!page.contains("data-chart=\"taps\""))
        // Stage markers on every chart (an unnamed stage by its number), the mark too, escaped.
        #expect(page.components(separatedBy: "<g class=\"marker stage\" data-name=\"ramp\">").count == 5)
        #expect(page.components(separatedBy: "<g class=\"marker stage\" data-name=\"stage 2\">").count == 5)
        #expect(page.components(separatedBy: "<g class=\"marker mark\" data-name=\"kill &lt;node-2&gt;\">").count == 5)
        #expect(!page.contains("<node-2>") && !page.contains("watch<ers>"))
        // The clients chart: 1, 2, 3, 4 connected at 1…4 s on an axis to 5.
        #expect(page.contains("<polyline fill=\"none\" points=\"238.0,159.2 420.0,126.4 602.0,93.6 784.0,60.8\"/>"))
        // The summary and the breached threshold.
        #expect(page.contains("<tr><th>connections</th><td>made 4 of 5 attempted, failed 0, closed early 0</td></tr>"))
        #expect(page.contains("<tr><th>reconnects</th><td>1 attempted, 1 reconnected; time p50 500 ms  p95 500 ms  p99 500 ms  max 500 ms  (n=1); "
                              + "first frame p50 600 ms  p95 600 ms  p99 600 ms  max 600 ms  (n=1)</td></tr>"))
        #expect(page.contains("<tr class=\"breached\"><td>watch&lt;ers&gt;.maxP99FrameAgeMs</td><td>50</td><td>72.5</td><td>breached</td></tr>"))
        #expect(page.contains("<tr><th>2.50 s</th><td>kill &lt;node-2&gt;</td></tr>"))
        #expect(page.contains("<tr><th>result</th><td>breached</td></tr>"))
    }

    @Test func playersAddTheTapChart() throws {
        let charts = HTMLReport.charts(try report(players: true))
        #expect(charts.map(\.id) == ["clients", "frames", "frame-age", "taps", "errors"])
        #expect(charts[3].series.map(\.name) == ["p50", "p99"])
        #expect(charts[2].series[1].points.map(\.y) == [20, 20, 20, 20])
    }
}
