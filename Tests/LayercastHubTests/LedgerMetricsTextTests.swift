import LayercastLedger
import Testing
@testable import LayercastHub

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
