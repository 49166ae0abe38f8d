import LayercastScenes
import LayercastWire

/// The server's counters, the hub's and its transport's, kept on the hub's thread and rendered as
/// Prometheus text.
public struct Metrics {
    var fullFramesEncoded = 0
    var deltaFramesEncoded = 0
    var bytesSent = 0
    /// The transport's write path: messages compressed (once each, for every client that took
    /// permessage-deflate), the compressed frames' bytes written, and writes the kernel took only
    /// in part (the transport sends the rest when the socket is writable again).
    public var messagesDeflated = 0
    public var deflatedBytesSent = 0
    public var partialWrites = 0
    var framesSkipped = 0
    /// Awards committed to the ledger and announced.
    var awards = 0
    var clientsDropped: [String: Int] = ["stalled": 0, "backlog": 0, "abuse": 0]
    var rejected: [ProtocolErrorCode: Int] = [:]
    /// Taps that would have claimed something but were refused by a scene's rule, by rule (every
    /// scene's `tapRules` listed from the start).
    var claimRefusals: [String: Int]
    /// Requests refused by a per-address limit, by rule.
    var hostRefusals: [HostLimits.Rule: Int] = [:]
    /// HTTP requests refused before any handler (RequestFraming, the body timeout), by reason.
    public var httpRefused: [String: Int] = Dictionary(uniqueKeysWithValues: Self.httpRefusalReasons.map { ($0, 0) })
    /// JSON API answers with an error (`{"error": code}`), by code.
    public var apiErrors: [String: Int] = [:]
    /// WebSocket connections failed for breaking RFC 6455, by reason.
    public var webSocketViolations: [String: Int] = ["close_payload": 0, "close_code": 0, "close_reason_utf8": 0]
    /// In a cluster: what became of the rounds (rains) running in rooms this node took over.
    var takeovers: [TakeoverOutcome: Int] = [:]
    var tapLatency = Histogram(bounds: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1])

    init(refusalRules: [String]) {
        claimRefusals = Dictionary(refusalRules.map { ($0, 0) }, uniquingKeysWith: { a, _ in a })
    }

    /// The exposition text; the gauges come from the live rooms.
    func render(rooms: Int, players: Int, spectators: Int) -> String {
        var out = ""
        func family(_ name: String, _ type: String, _ help: String) {
            out += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
        }
        family("layercast_rooms", "gauge", "Rooms running a scene.")
        out += "layercast_rooms \(rooms)\n"
        family("layercast_clients", "gauge", "WebSocket clients by role.")
        out += "layercast_clients{role=\"player\"} \(players)\nlayercast_clients{role=\"spectator\"} \(spectators)\n"
        family("layercast_frames_encoded_total", "counter", "Frames encoded, once per room, by kind.")
        out += "layercast_frames_encoded_total{kind=\"full\"} \(fullFramesEncoded)\n"
        out += "layercast_frames_encoded_total{kind=\"delta\"} \(deltaFramesEncoded)\n"
        family("layercast_bytes_sent_total", "counter", "WebSocket message bytes written to clients.")
        out += "layercast_bytes_sent_total \(bytesSent)\n"
        family("layercast_messages_deflated_total", "counter", "Messages compressed for permessage-deflate clients, once per message whatever number of clients it goes to.")
        out += "layercast_messages_deflated_total \(messagesDeflated)\n"
        family("layercast_deflated_bytes_sent_total", "counter", "Bytes of compressed frames (headers included) written to permessage-deflate clients; their messages count uncompressed in layercast_bytes_sent_total.")
        out += "layercast_deflated_bytes_sent_total \(deflatedBytesSent)\n"
        family("layercast_partial_writes_total", "counter", "Frame writes the kernel took only in part; the rest is sent when the socket is writable again.")
        out += "layercast_partial_writes_total \(partialWrites)\n"
        family("layercast_frames_skipped_total", "counter", "Frames a slow client skipped to catch up with the newest.")
        out += "layercast_frames_skipped_total \(framesSkipped)\n"
        family("layercast_awards_total", "counter", "Rain packets awarded (committed to the ledger, then announced).")
        out += "layercast_awards_total \(awards)\n"
        family("layercast_clients_dropped_total", "counter", "Clients the server closed, by reason.")
        for (reason, count) in clientsDropped.sorted(by: { $0.key < $1.key }) {
            out += "layercast_clients_dropped_total{reason=\"\(reason)\"} \(count)\n"
        }
        family("layercast_messages_rejected_total", "counter", "Client messages and joins rejected, by error code.")
        for code in ProtocolErrorCode.allCases {
            out += "layercast_messages_rejected_total{reason=\"\(code.rawValue)\"} \(rejected[code, default: 0])\n"
        }
        family("layercast_rain_claims_refused_total", "counter", "Taps on a free rain packet refused by a fairness rule, by rule.")
        for (rule, count) in claimRefusals.sorted(by: { $0.key < $1.key }) {
            out += "layercast_rain_claims_refused_total{rule=\"\(rule)\"} \(count)\n"
        }
        family("layercast_takeover_rounds_total", "counter", "Rounds (rains) running in rooms this node took over: resumed, or why they were recorded interrupted.")
        for outcome in TakeoverOutcome.allCases {
            out += "layercast_takeover_rounds_total{outcome=\"\(outcome.rawValue)\"} \(takeovers[outcome, default: 0])\n"
        }
        family("layercast_host_refusals_total", "counter", "Connections, anonymous joins and taps refused by a per-address limit, by rule.")
        for rule in HostLimits.Rule.allCases {
            out += "layercast_host_refusals_total{rule=\"\(rule.rawValue)\"} \(hostRefusals[rule, default: 0])\n"
        }
        family("layercast_http_refused_total", "counter", "HTTP requests refused before any handler and closed, by reason.")
        for (reason, count) in httpRefused.sorted(by: { $0.key < $1.key }) {
            out += "layercast_http_refused_total{reason=\"\(reason)\"} \(count)\n"
        }
        family("layercast_api_errors_total", "counter", "JSON API requests answered with an error, by its code.")
        for (code, count) in apiErrors.sorted(by: { $0.key < $1.key }) {
            out += "layercast_api_errors_total{code=\"\(code)\"} \(count)\n"
        }
        family("layercast_websocket_violations_total", "counter", "WebSocket connections failed for breaking RFC 6455, by reason.")
        for (reason, count) in webSocketViolations.sorted(by: { $0.key < $1.key }) {
            out += "layercast_websocket_violations_total{reason=\"\(reason)\"} \(count)\n"
        }
        family("layercast_tap_latency_seconds", "histogram", "From a tap's arrival to the write of its result to the tapping client.")
        out += tapLatency.render(name: "layercast_tap_latency_seconds")
        return out
    }
}

extension Metrics {
    /// Every `reason` of `layercast_http_refused_total` (docs/protocol.md, "Strict requests").
    public static let httpRefusalReasons = ["bad_request_line", "bad_method", "bad_header", "duplicate_content_length",
                                     "bad_content_length", "content_length_and_transfer_encoding", "duplicate_host", "bad_target",
                                     "subprotocol", "head_too_large", "body_timeout"]
}

/// A Prometheus histogram with fixed upper bounds.
struct Histogram {
    let bounds: [Double]
    private(set) var counts: [Int]
    private(set) var sum = 0.0
    private(set) var total = 0

    init(bounds: [Double]) {
        self.bounds = bounds
        counts = Array(repeating: 0, count: bounds.count)
    }

    mutating func observe(_ value: Double) {
        for (i, bound) in bounds.enumerated() where value <= bound { counts[i] += 1 }
        sum += value
        total += 1
    }

    func render(name: String) -> String {
        var out = ""
        for (bound, count) in zip(bounds, counts) { out += "\(name)_bucket{le=\"\(bound)\"} \(count)\n" }
        out += "\(name)_bucket{le=\"+Inf\"} \(total)\n\(name)_sum \(sum)\n\(name)_count \(total)\n"
        return out
    }
}
