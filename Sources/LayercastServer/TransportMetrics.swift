import LayercastHub
import LayercastSceneAPI
import LayercastWire

/// The transport's own counters of `/metrics`, kept on the service thread: HTTP requests refused
/// before any handler, JSON API answers with an error, and WebSockets failed for breaking RFC 6455.
/// The hub's text asks for their families (`HubTransport.writeMetrics`).
struct TransportMetrics {
    /// HTTP requests refused before any handler (RequestFraming, the head and body timeouts, a peer
    /// gone before its head was whole), by reason.
    var httpRefused: [String: Int] = Dictionary(uniqueKeysWithValues: Self.httpRefusalReasons.map { ($0, 0) })
    /// JSON API answers with an error (`{"error": code}`), by code.
    var apiErrors: [ErrorCode: Int] = [:]
    /// WebSocket connections failed for breaking RFC 6455, by reason.
    var webSocketViolations: [String: Int] = Dictionary(uniqueKeysWithValues: Self.webSocketViolationReasons.map { ($0, 0) })

    /// Writes the three families, in this order.
    func write(into out: inout PrometheusText) {
        out.family("layercast_http_refused_total", .counter, "HTTP requests refused before any handler and closed, by reason.",
                   label: "reason", counts: httpRefused)
        out.family("layercast_api_errors_total", .counter, "JSON API requests answered with an error, by its code.", label: "code",
                   counts: Dictionary(uniqueKeysWithValues: apiErrors.map { ($0.key.rawValue, $0.value) }))
        out.family("layercast_websocket_violations_total", .counter, "WebSocket connections failed for breaking RFC 6455, by reason.",
                   label: "reason", counts: webSocketViolations)
    }

    /// Every `reason` of `layercast_http_refused_total` (docs/protocol.md, "Strict requests").
    static let httpRefusalReasons = ["bad_request_line", "bad_method", "bad_header", "duplicate_content_length",
                                     "bad_content_length", "content_length_and_transfer_encoding", "duplicate_host", "bad_target",
                                     "subprotocol", "head_too_large", "head_timeout", "peer_gone", "body_timeout"]

    /// Every `reason` of `layercast_websocket_violations_total` (docs/protocol.md, "Frames a client sends").
    static let webSocketViolationReasons = ["unmasked", "rsv_bits", "opcode", "control_frame", "continuation", "length",
                                            "invalid_utf8", "bad_deflate", "close_payload", "close_code", "close_reason_utf8"]
}
