import Foundation
import LayercastLedger
import LayercastSceneAPI
import LayercastScenes
import LayercastWire
import Testing
@testable import LayercastHub

/// The whole `/metrics` text for given counters, byte for byte (metrics.prom): names, order,
/// label order, HELP and TYPE lines.
@Suite struct MetricsTextTests {
    @Test func rendersEveryFamilyExactly() throws {
        var metrics = Metrics(tapRules: [(scene: "rain", rules: ["too_soon", "max_awards"])])
        metrics.fullFramesEncoded = 4
        metrics.deltaFramesEncoded = 5
        metrics.bytesSent = 6
        metrics.messagesDeflated = 7
        metrics.deflatedBytesSent = 8
        metrics.partialWrites = 9
        metrics.framesSkipped = 10
        metrics.awards = 11
        metrics.sceneAwards["rain"] = 11
        metrics.clientsDropped["stalled"] = 12
        metrics.rejected[.badJSON] = 13
        metrics.rejected[.notReady] = 14
        metrics.claimRefusals["rain"]?["too_soon"] = 15
        metrics.takeovers[.resumed] = 16
        metrics.takeovers[.superseded] = 17
        metrics.sceneTakeovers["rain"] = [.resumed: 16, .superseded: 17]
        metrics.addressRefusals[.taps] = 18
        metrics.httpRefused["body_timeout"] = 19
        metrics.apiErrors[.notFound] = 20
        metrics.apiErrors[.badJSON] = 21
        metrics.webSocketViolations["close_code"] = 22
        metrics.stepDowns[.redis] = 23
        metrics.stepDowns[.fenced] = 24
        metrics.tapLatency.observe(0.25)
        metrics.tapLatency.observe(2)
        let expected = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("metrics.prom"), encoding: .utf8)
        #expect(metrics.render(rooms: 1, players: 2, spectators: 3, refusedAnimations: 4) == expected)
    }
}

/// The ledger's families: each call's time by operation, the calls pending, the timeouts.
@Suite struct LedgerMetricsTextTests {
    @Test func rendersTheLedgersFamiliesExactly() {
        var metrics = Metrics(tapRules: [])
        metrics.countLedger([
            LedgerThread.Outcome(operation: "award", seconds: 0.004, timedOut: false),
            LedgerThread.Outcome(operation: "award", seconds: 3, timedOut: true),
            LedgerThread.Outcome(operation: "read", seconds: nil, timedOut: true),
        ])
        let text = metrics.renderLedger(pending: 2)
        #expect(text.contains("""
            # TYPE layercast_ledger_call_seconds histogram
            layercast_ledger_call_seconds_bucket{operation="award",le="0.001"} 0
            layercast_ledger_call_seconds_bucket{operation="award",le="0.0025"} 0
            layercast_ledger_call_seconds_bucket{operation="award",le="0.005"} 1
            """))
        #expect(text.contains("""
            layercast_ledger_call_seconds_bucket{operation="award",le="+Inf"} 2
            layercast_ledger_call_seconds_sum{operation="award"} 3.004
            layercast_ledger_call_seconds_count{operation="award"} 2
            layercast_ledger_call_seconds_bucket{operation="begin_round",le="0.001"} 0
            """))
        #expect(text.contains("layercast_ledger_call_seconds_count{operation=\"read\"} 0\n"))
        #expect(text.hasSuffix("""
            # HELP layercast_ledger_pending_calls Ledger calls made and not yet answered (queued or running).
            # TYPE layercast_ledger_pending_calls gauge
            layercast_ledger_pending_calls 2
            # HELP layercast_ledger_timeouts_total Ledger calls answered ledger_unavailable at their deadline, by operation.
            # TYPE layercast_ledger_timeouts_total counter
            layercast_ledger_timeouts_total{operation="award"} 1
            layercast_ledger_timeouts_total{operation="begin_round"} 0
            layercast_ledger_timeouts_total{operation="claim_rounds"} 0
            layercast_ledger_timeouts_total{operation="end_round"} 0
            layercast_ledger_timeouts_total{operation="probe"} 0
            layercast_ledger_timeouts_total{operation="read"} 1

            """))
    }
}
