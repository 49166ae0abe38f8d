import LayercastScenes
import LayercastWire
import Testing
@testable import LayercastHub

/// The whole `/metrics` text for given counters, byte for byte: names, order, label order, HELP
/// and TYPE lines.
@Suite struct MetricsTextTests {
    @Test func rendersEveryFamilyExactly() {
        var metrics = Metrics(refusalRules: ["too_soon", "max_awards"])
        metrics.fullFramesEncoded = 4
        metrics.deltaFramesEncoded = 5
        metrics.bytesSent = 6
        metrics.messagesDeflated = 7
        metrics.deflatedBytesSent = 8
        metrics.partialWrites = 9
        metrics.framesSkipped = 10
        metrics.awards = 11
        metrics.clientsDropped["stalled"] = 12
        metrics.rejected[.badJSON] = 13
        metrics.rejected[.notReady] = 14
        metrics.claimRefusals["too_soon"] = 15
        metrics.takeovers[.resumed] = 16
        metrics.takeovers[.superseded] = 17
        metrics.hostRefusals[.taps] = 18
        metrics.httpRefused["body_timeout"] = 19
        metrics.apiErrors["not_found"] = 20
        metrics.apiErrors["bad_request"] = 21
        metrics.webSocketViolations["close_code"] = 22
        metrics.tapLatency.observe(0.25)
        metrics.tapLatency.observe(2)
        #expect(metrics.render(rooms: 1, players: 2, spectators: 3) == """
            # HELP layercast_rooms Rooms running a scene.
            # TYPE layercast_rooms gauge
            layercast_rooms 1
            # HELP layercast_clients WebSocket clients by role.
            # TYPE layercast_clients gauge
            layercast_clients{role="player"} 2
            layercast_clients{role="spectator"} 3
            # HELP layercast_frames_encoded_total Frames encoded, once per room, by kind.
            # TYPE layercast_frames_encoded_total counter
            layercast_frames_encoded_total{kind="full"} 4
            layercast_frames_encoded_total{kind="delta"} 5
            # HELP layercast_bytes_sent_total WebSocket message bytes written to clients.
            # TYPE layercast_bytes_sent_total counter
            layercast_bytes_sent_total 6
            # HELP layercast_messages_deflated_total Messages compressed for permessage-deflate clients, once per message whatever number of clients it goes to.
            # TYPE layercast_messages_deflated_total counter
            layercast_messages_deflated_total 7
            # HELP layercast_deflated_bytes_sent_total Bytes of compressed frames (headers included) written to permessage-deflate clients; their messages count uncompressed in layercast_bytes_sent_total.
            # TYPE layercast_deflated_bytes_sent_total counter
            layercast_deflated_bytes_sent_total 8
            # HELP layercast_partial_writes_total Frame writes the kernel took only in part; the rest is sent when the socket is writable again.
            # TYPE layercast_partial_writes_total counter
            layercast_partial_writes_total 9
            # HELP layercast_frames_skipped_total Frames a slow client skipped to catch up with the newest.
            # TYPE layercast_frames_skipped_total counter
            layercast_frames_skipped_total 10
            # HELP layercast_awards_total Rain packets awarded (committed to the ledger, then announced).
            # TYPE layercast_awards_total counter
            layercast_awards_total 11
            # HELP layercast_clients_dropped_total Clients the server closed, by reason.
            # TYPE layercast_clients_dropped_total counter
            layercast_clients_dropped_total{reason="abuse"} 0
            layercast_clients_dropped_total{reason="backlog"} 0
            layercast_clients_dropped_total{reason="stalled"} 12
            # HELP layercast_messages_rejected_total Client messages and joins rejected, by error code.
            # TYPE layercast_messages_rejected_total counter
            layercast_messages_rejected_total{reason="bad_json"} 13
            layercast_messages_rejected_total{reason="unknown_type"} 0
            layercast_messages_rejected_total{reason="bad_field"} 0
            layercast_messages_rejected_total{reason="too_large"} 0
            layercast_messages_rejected_total{reason="binary"} 0
            layercast_messages_rejected_total{reason="rate_limited"} 0
            layercast_messages_rejected_total{reason="forbidden"} 0
            layercast_messages_rejected_total{reason="unknown_scene"} 0
            layercast_messages_rejected_total{reason="bad_room"} 0
            layercast_messages_rejected_total{reason="bad_role"} 0
            layercast_messages_rejected_total{reason="server_full"} 0
            layercast_messages_rejected_total{reason="bad_token"} 0
            layercast_messages_rejected_total{reason="token_required"} 0
            layercast_messages_rejected_total{reason="bad_player"} 0
            layercast_messages_rejected_total{reason="ledger_unavailable"} 0
            layercast_messages_rejected_total{reason="host_limit"} 0
            layercast_messages_rejected_total{reason="not_ready"} 14
            # HELP layercast_rain_claims_refused_total Taps on a free rain packet refused by a fairness rule, by rule.
            # TYPE layercast_rain_claims_refused_total counter
            layercast_rain_claims_refused_total{rule="max_awards"} 0
            layercast_rain_claims_refused_total{rule="too_soon"} 15
            # HELP layercast_takeover_rounds_total Rounds (rains) running in rooms this node took over: resumed, or why they were recorded interrupted.
            # TYPE layercast_takeover_rounds_total counter
            layercast_takeover_rounds_total{outcome="resumed"} 16
            layercast_takeover_rounds_total{outcome="unreadable"} 0
            layercast_takeover_rounds_total{outcome="screen"} 0
            layercast_takeover_rounds_total{outcome="replay"} 0
            layercast_takeover_rounds_total{outcome="clock"} 0
            layercast_takeover_rounds_total{outcome="scene"} 0
            layercast_takeover_rounds_total{outcome="superseded"} 17
            # HELP layercast_host_refusals_total Connections, anonymous joins and taps refused by a per-address limit, by rule.
            # TYPE layercast_host_refusals_total counter
            layercast_host_refusals_total{rule="connections"} 0
            layercast_host_refusals_total{rule="anonymous_joins"} 0
            layercast_host_refusals_total{rule="taps"} 18
            # HELP layercast_http_refused_total HTTP requests refused before any handler and closed, by reason.
            # TYPE layercast_http_refused_total counter
            layercast_http_refused_total{reason="bad_content_length"} 0
            layercast_http_refused_total{reason="bad_header"} 0
            layercast_http_refused_total{reason="bad_method"} 0
            layercast_http_refused_total{reason="bad_request_line"} 0
            layercast_http_refused_total{reason="bad_target"} 0
            layercast_http_refused_total{reason="body_timeout"} 19
            layercast_http_refused_total{reason="content_length_and_transfer_encoding"} 0
            layercast_http_refused_total{reason="duplicate_content_length"} 0
            layercast_http_refused_total{reason="duplicate_host"} 0
            layercast_http_refused_total{reason="head_too_large"} 0
            layercast_http_refused_total{reason="subprotocol"} 0
            # HELP layercast_api_errors_total JSON API requests answered with an error, by its code.
            # TYPE layercast_api_errors_total counter
            layercast_api_errors_total{code="bad_request"} 21
            layercast_api_errors_total{code="not_found"} 20
            # HELP layercast_websocket_violations_total WebSocket connections failed for breaking RFC 6455, by reason.
            # TYPE layercast_websocket_violations_total counter
            layercast_websocket_violations_total{reason="close_code"} 22
            layercast_websocket_violations_total{reason="close_payload"} 0
            layercast_websocket_violations_total{reason="close_reason_utf8"} 0
            # HELP layercast_tap_latency_seconds From a tap's arrival to the write of its result to the tapping client.
            # TYPE layercast_tap_latency_seconds histogram
            layercast_tap_latency_seconds_bucket{le="0.0005"} 0
            layercast_tap_latency_seconds_bucket{le="0.001"} 0
            layercast_tap_latency_seconds_bucket{le="0.0025"} 0
            layercast_tap_latency_seconds_bucket{le="0.005"} 0
            layercast_tap_latency_seconds_bucket{le="0.01"} 0
            layercast_tap_latency_seconds_bucket{le="0.025"} 0
            layercast_tap_latency_seconds_bucket{le="0.05"} 0
            layercast_tap_latency_seconds_bucket{le="0.1"} 0
            layercast_tap_latency_seconds_bucket{le="0.25"} 1
            layercast_tap_latency_seconds_bucket{le="0.5"} 1
            layercast_tap_latency_seconds_bucket{le="1.0"} 1
            layercast_tap_latency_seconds_bucket{le="+Inf"} 2
            layercast_tap_latency_seconds_sum 2.25
            layercast_tap_latency_seconds_count 2

            """)
    }
}
