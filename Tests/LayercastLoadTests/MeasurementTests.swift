@testable import LayercastLoad
import Testing

@Suite struct MeasurementTests {
    @Test func mediaClockKeepsTheSmallestOffset() {
        var clock = ServerClockEstimate()
        #expect(clock.age(of: 1, receivedAt: 2) == nil)
        clock.observe(mediaTime: 10, receivedAt: 110.004)  // welcome after 4 ms: offset 100.004
        clock.observe(mediaTime: 12, receivedAt: 112.001)  // a pong after 1 ms: offset 100.001
        clock.observe(mediaTime: 13, receivedAt: 113.5)    // a late frame does not move it
        // The late frame's age against offset 100.001: 113.5 − 100.001 − 13.
        let age = clock.age(of: 13, receivedAt: 113.5)!
        #expect(abs(age - 0.499) < 1e-9)
    }

    @Test func serverSampleFromProc() throws {
        // Fields after ")": state(3) … utime(14)=250, stime(15)=50; a name with spaces and ")".
        let stat = "4242 (layer cast) x) S 1 4242 4242 0 -1 4194304 900 0 0 0 250 50 0 0 20 0 3 0 12345 1000000 2000"
        let status = "Name:\tlayercast\nVmHWM:\t   20480 kB\nVmRSS:\t   10240 kB\n"
        let sample = try #require(ServerProcessSample.parse(stat: stat, status: status, ticksPerSecond: 100))
        #expect(sample == ServerProcessSample(cpuSeconds: 3, residentBytes: 10240 * 1024, peakResidentBytes: 20480 * 1024))
    }

    @Test func objectivesBreachAboveTheLimitOrWithNothingMeasured() {
        var stats = LoadStats()
        stats.frames = 90
        stats.skipped = 10
        let checks = ServiceLevelObjectives(maxSkipRatio: 0.05, maxP99TapMs: 100).checks(stats)
        // 10 / (90 + 10) = 0.1 > 0.05; no tap was answered, so the tap objective cannot be met.
        #expect(checks.map(\.flag) == ["--max-skip-ratio", "--max-p99-tap-ms"])
        #expect(checks[0].value == 0.1)
        #expect(checks[0].breached)
        #expect(checks[1].value == nil)
        #expect(checks[1].breached)
        #expect(!ServiceLevelObjectives(maxSkipRatio: 0.1).checks(stats)[0].breached)  // at the limit is within it
    }

    @Test func reconnectThresholdsCheckTheirOwnHistograms() {
        var stats = LoadStats()
        stats.reconnectTime.record(seconds: 0.4)
        stats.reconnectFrameTime.record(seconds: 0.9)
        var objectives = ServiceLevelObjectives()
        objectives.maxP99ReconnectMs = 500
        objectives.maxP99ReconnectFirstFrameMs = 500
        let checks = objectives.checks(stats, scope: "watchers")
        // 400 ms to the welcome is within 500; 900 ms to the first frame is not.
        #expect(checks.map(\.flag) == ["watchers.maxP99ReconnectMs", "watchers.maxP99ReconnectFirstFrameMs"])
        #expect(checks.map(\.breached) == [false, true])
        #expect(abs((checks[1].value ?? 0) - 900) < 0.9)
        #expect(objectives.checks(LoadStats(), scope: "watchers").allSatisfy { $0.value == nil && $0.breached })
    }

    @Test func progressLine() {
        #expect(ProgressLine.text(elapsed: 12.7, connected: 4980, clients: 5000, framesPerSecond: 149_400.4, p99FrameAge: 23.44, errors: 3)
                == "  12 s  connected 4980/5000  frames/s 149400  p99 age 23.4 ms  errors 3")
        #expect(ProgressLine.text(elapsed: 1, connected: 0, clients: 5, framesPerSecond: 0, p99FrameAge: nil, errors: 0)
                == "   1 s  connected 0/5  frames/s 0  p99 age –  errors 0")
    }
}
