import LayercastLedger
import LayercastSceneAPI
import LayercastWire

/// The hub's counters, and its transport's write path's, kept on the hub's thread and rendered as
/// Prometheus text with the transport's own families (`HubTransport.writeMetrics`).
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
    /// Awards committed to the ledger and announced, in all and by scene id.
    var awards = 0
    var sceneAwards: [String: Int]
    var clientsDropped: [String: Int] = ["stalled": 0, "backlog": 0, "abuse": 0]
    var rejected: [ErrorCode: Int] = [:]
    /// Taps that would have claimed something but were refused by a scene's rule, by scene id and
    /// rule (every scene's `tapRules` listed from the start).
    var claimRefusals: [String: [String: Int]]
    /// Requests refused by a per-address limit, by rule.
    var addressRefusals: [AddressLimits.Rule: Int] = [:]
    /// In a cluster: what became of the rounds running in rooms this node took over, in all and
    /// by scene id.
    var takeovers: [TakeoverOutcome: Int] = [:]
    var sceneTakeovers: [String: [TakeoverOutcome: Int]] = [:]
    /// In a cluster: rooms this node stepped down from, by why (`Hub.stepDown`).
    var stepDowns: [StepDownReason: Int] = [:]
    var tapLatency = Histogram(bounds: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1])
    /// Seconds each ledger call ran on the ledger's thread, by operation (`LedgerThread.Outcome`).
    var ledgerLatency: [String: Histogram] = Dictionary(uniqueKeysWithValues: Self.ledgerOperations.map { ($0, Self.ledgerHistogram) })
    /// Ledger calls answered `ledger_unavailable` at their deadline, by operation.
    var ledgerTimeouts: [String: Int] = Dictionary(uniqueKeysWithValues: Self.ledgerOperations.map { ($0, 0) })

    /// Counters at 0, with a sample from the start for each scene in `tapRules` and each of its rules.
    init(tapRules: [(scene: String, rules: [String])]) {
        claimRefusals = Dictionary(tapRules.map { ($0.scene, Dictionary($0.rules.map { ($0, 0) }, uniquingKeysWith: { a, _ in a })) },
                                   uniquingKeysWith: { a, _ in a })
        sceneAwards = Dictionary(tapRules.map { ($0.scene, 0) }, uniquingKeysWith: { a, _ in a })
    }

    /// Counts a tap of scene `scene` refused under its rule `rule`.
    /// Counts what the ledger's thread answered.
    mutating func countLedger(_ outcomes: [LedgerThread.Outcome]) {
        for outcome in outcomes {
            if let seconds = outcome.seconds { ledgerLatency[outcome.operation, default: Self.ledgerHistogram].observe(seconds) }
            if outcome.timedOut { ledgerTimeouts[outcome.operation, default: 0] += 1 }
        }
    }

    /// The ledger's families: call latency by operation, pending calls, timeouts by operation.
    func renderLedger(pending: Int) -> String {
        var out = PrometheusText()
        out.family("layercast_ledger_call_seconds", "Seconds a ledger call ran on the ledger's thread, by operation.",
                   label: "operation", histograms: ledgerLatency)
        out.family("layercast_ledger_pending_calls", .gauge, "Ledger calls made and not yet answered (queued or running).", value: pending)
        out.family("layercast_ledger_timeouts_total", .counter, "Ledger calls answered ledger_unavailable at their deadline, by operation.",
                   label: "operation", counts: ledgerTimeouts)
        return out.text
    }

    mutating func countRefusal(scene: String, rule: String) {
        claimRefusals[scene, default: [:]][rule, default: 0] += 1
    }

    /// Counts what became of a round of scene `scene` on a takeover.
    mutating func countTakeover(_ outcome: TakeoverOutcome, scene: String) {
        takeovers[outcome, default: 0] += 1
        sceneTakeovers[scene, default: [:]][outcome, default: 0] += 1
    }

    /// Counts an award of scene `scene`.
    mutating func countAward(scene: String) {
        awards += 1
        sceneAwards[scene, default: 0] += 1
    }

    /// The name of scene `scene`'s own family of refusals, `layercast_SCENE_claims_refused_total`
    /// (a character a metric name cannot hold becomes `_`): the name these counts had before they
    /// were labelled by scene, which dashboards of the first scene to count them still read.
    static func sceneRefusalFamily(_ scene: String) -> String {
        let name = scene.unicodeScalars.map { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) ? Character($0) : "_" }
        return "layercast_\(String(name))_claims_refused_total"
    }

    /// The exposition text; the gauges come from the live rooms, `refusedAnimations` is the
    /// engine's count of animations `add(_:forKey:)` could not run, and `transport` writes the
    /// transport's families after `layercast_host_refusals_total`.
    func render(rooms: Int, players: Int, spectators: Int, refusedAnimations: Int = 0,
                transport: (inout PrometheusText) -> Void = { _ in }) -> String {
        var out = PrometheusText()
        out.family("layercast_rooms", .gauge, "Rooms running a scene.", value: rooms)
        out.family("layercast_clients", .gauge, "WebSocket clients by role.",
                   label: "role", samples: [("player", players), ("spectator", spectators)])
        out.family("layercast_frames_encoded_total", .counter, "Frames encoded, once per room, by kind.",
                   label: "kind", samples: [("full", fullFramesEncoded), ("delta", deltaFramesEncoded)])
        out.family("layercast_bytes_sent_total", .counter, "WebSocket message bytes written to clients.", value: bytesSent)
        out.family("layercast_messages_deflated_total", .counter, "Messages compressed for permessage-deflate clients, once per message whatever number of clients it goes to.",
                   value: messagesDeflated)
        out.family("layercast_deflated_bytes_sent_total", .counter, "Bytes of compressed frames (headers included) written to permessage-deflate clients; their messages count uncompressed in layercast_bytes_sent_total.",
                   value: deflatedBytesSent)
        out.family("layercast_partial_writes_total", .counter, "Frame writes the kernel took only in part; the rest is sent when the socket is writable again.",
                   value: partialWrites)
        out.family("layercast_frames_skipped_total", .counter, "Frames a slow client skipped to catch up with the newest.", value: framesSkipped)
        out.family("layercast_awards_total", .counter, "Items of scenes' rounds awarded (committed to the ledger, then announced).", value: awards)
        out.family("layercast_scene_awards_total", .counter, "Items of scenes' rounds awarded, by scene id.", label: "scene", counts: sceneAwards)
        out.family("layercast_clients_dropped_total", .counter, "Clients the server closed, by reason.", label: "reason", counts: clientsDropped)
        out.family("layercast_messages_rejected_total", .counter, "Client messages and joins rejected, by error code.",
                   label: "reason", samples: ErrorCode.webSocket.map { ($0.rawValue, rejected[$0, default: 0]) })
        let refusals = claimRefusals.sorted { $0.key < $1.key }
        out.family("layercast_claims_refused_total", .counter, "Taps on a free item refused by a rule of its scene, by scene id and rule.",
                   labels: ("scene", "rule"), samples: refusals.flatMap { scene, rules in
                       rules.sorted { $0.key < $1.key }.map { (scene, $0.key, $0.value) }
                   })
        for (scene, rules) in refusals {
            out.family(Self.sceneRefusalFamily(scene), .counter, "Taps on a free item of the scene \(scene) refused by one of its rules, by rule (as layercast_claims_refused_total{scene=\"\(scene)\"}).",
                       label: "rule", counts: rules)
        }
        out.family("layercast_takeover_rounds_total", .counter, "Rounds of a scene running in rooms this node took over: resumed, or why they were recorded interrupted.",
                   label: "outcome", counts: takeovers)
        out.family("layercast_scene_takeover_rounds_total", .counter, "Rounds running in rooms this node took over, by scene id and outcome (as layercast_takeover_rounds_total).",
                   labels: ("scene", "outcome"), samples: sceneTakeovers.sorted { $0.key < $1.key }.flatMap { scene, outcomes in
                       TakeoverOutcome.allCases.compactMap { outcome in outcomes[outcome].map { (scene, outcome.rawValue, $0) } }
                   })
        out.family("layercast_stepdowns_total", .counter, "Rooms this node stopped serving because it may no longer hold them (its clients were told to reconnect), by reason: redis, lease, fenced.",
                   label: "reason", counts: stepDowns)
        out.family("layercast_host_refusals_total", .counter, "Connections, anonymous joins and taps refused by a per-address limit, by rule.",
                   label: "rule", counts: addressRefusals)
        transport(&out)
        out.family("layercast_animations_refused_total", .counter, "Animations add(_:forKey:) refused because the engine cannot run their key path or value; the first of each key path is logged.",
                   value: refusedAnimations)
        out.family("layercast_tap_latency_seconds", "From a tap's arrival to the write of its result to the tapping client.", histogram: tapLatency)
        return out.text
    }
}

extension Metrics {
    /// Every operation of the ledger's families: an award's commit, a round's start and end, a
    /// takeover's claims, a read, the probe of an idle ledger.
    static let ledgerOperations = ["award", "begin_round", "end_round", "claim_rounds", "read", "probe"]
    static let ledgerHistogram = Histogram(bounds: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10])
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

    /// Its samples; `labels` (`key="value"`, comma-separated) go before each bucket's `le`.
    func render(name: String, labels: String = "") -> String {
        var out = ""
        let prefix = labels.isEmpty ? "" : labels + ","
        let own = labels.isEmpty ? "" : "{\(labels)}"
        for (bound, count) in zip(bounds, counts) { out += "\(name)_bucket{\(prefix)le=\"\(bound)\"} \(count)\n" }
        out += "\(name)_bucket{\(prefix)le=\"+Inf\"} \(total)\n\(name)_sum\(own) \(sum)\n\(name)_count\(own) \(total)\n"
        return out
    }
}
