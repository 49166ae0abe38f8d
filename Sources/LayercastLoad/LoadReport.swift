import Foundation
import LayercastJSON

/// The outcome of a run: what was asked, what the clients measured, the server's CPU and
/// memory, and the objectives checked (docs/loadtest.md explains every figure).
public struct LoadReport: Sendable {
    public var configuration: LoadConfiguration
    public var url: String
    /// Seconds the run lasted (`--duration`; rates are per second of it).
    public var seconds: Double
    public var stats: LoadStats
    public var server: ServerUsage?
    public var checks: [ServiceLevelObjectives.Check]

    /// The server process over the run.
    public struct ServerUsage: Sendable {
        public var pid: Int32
        public var cpuSeconds: Double
        /// Peak resident set size since the server started (`VmHWM`).
        public var peakResidentBytes: Int
    }

    public init(configuration: LoadConfiguration, url: String, seconds: Double, stats: LoadStats,
                server: ServerUsage?, checks: [ServiceLevelObjectives.Check]) {
        self.configuration = configuration
        self.url = url
        self.seconds = seconds
        self.stats = stats
        self.server = server
        self.checks = checks
    }

    public var passed: Bool { !checks.contains(where: \.breached) }
    public var skipRatio: Double { FrameSequence.skipRatio(skipped: stats.skipped, received: stats.frames) }
    /// Frames each connected client got per second connected.
    public var framesPerClientSecond: Double { stats.connectedSeconds > 0 ? Double(stats.frames) / stats.connectedSeconds : 0 }

    /// The report for people.
    public var text: String {
        let s = stats, c = configuration
        var lines = [
            "layercast loadtest: \(c.clients) \(c.role.rawValue)s of \(c.scene)/\(c.room) at \(url), \(Self.number(seconds)) s, ramp \(Self.number(c.rampPerSecond))/s, \(c.workers > 1 ? "\(c.workers) workers × " : "")\(c.threads) thread\(c.threads == 1 ? "" : "s")",
            "connections   made \(s.connected) of \(s.attempted) attempted, failed \(s.failed), closed early \(s.closedEarly)",
            "connect time  \(s.connectTime.summary.text)",
            "frames        \(s.frames) received, \(Self.number(framesPerClientSecond)) per client per second",
            "skipped       \(s.skipped) (ratio \(Self.number(skipRatio, digits: 4)))",
            "frame age     \(s.frameAge.summary.text)",
        ]
        if c.role == .player {
            let results = s.tapResults.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            lines.append("taps          \(s.tapsSent) sent, \(s.tapsAnswered) answered\(results.isEmpty ? "" : " (\(results))")")
            lines.append("tap → result  \(s.tapLatency.summary.text)")
            lines.append("awards        \(s.awards) won, \(s.coins) coins")
        }
        lines.append("bytes         in \(Self.bytes(Double(s.bytesIn) / seconds))/s, out \(Self.bytes(Double(s.bytesOut) / seconds))/s (\(s.bytesIn) in, \(s.bytesOut) out)")
        let errors = s.errors.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        lines.append("errors        \(errors.isEmpty ? "none" : errors)")
        if let server {
            lines.append("server        pid \(server.pid): CPU \(Self.number(server.cpuSeconds)) s (\(Self.number(100 * server.cpuSeconds / seconds))% of a core), peak RSS \(Self.bytes(Double(server.peakResidentBytes)))")
        }
        for check in checks { lines.append("SLO           \(check.text)") }
        return lines.joined(separator: "\n")
    }

    /// The report as JSON (`--json FILE`; keys in docs/loadtest.md).
    public var json: JSONValue {
        let s = stats, c = configuration
        func n(_ x: Double) -> JSONValue { .number(x) }
        func i(_ x: Int) -> JSONValue { .number(Double(x)) }
        func counts(_ map: [String: Int]) -> JSONValue {
            .object(JSONObject(map.sorted { $0.key < $1.key }.map { ($0.key, i($0.value)) }))
        }
        var taps: JSONValue = .null
        if c.role == .player {
            taps = ["sent": i(s.tapsSent), "answered": i(s.tapsAnswered), "unanswered": i(s.tapsSent - s.tapsAnswered),
                    "results": counts(s.tapResults), "latencyMs": s.tapLatency.summary.json,
                    "awards": i(s.awards), "coins": i(s.coins)]
        }
        let serverValue: JSONValue = server.map { server in
            ["pid": i(Int(server.pid)), "cpuSeconds": n(Self.rounded(server.cpuSeconds)),
             "cpuPercent": n(Self.rounded(100 * server.cpuSeconds / seconds)), "peakRSSBytes": i(server.peakResidentBytes)]
        } ?? .null
        return [
            "run": ["url": .string(url), "scene": .string(c.scene), "room": .string(c.room), "role": .string(c.role.rawValue),
                    "clients": i(c.clients), "rampPerSecond": n(c.rampPerSecond), "seconds": n(seconds), "threads": i(c.threads), "workers": i(c.workers),
                    "tapsPerSecond": n(c.tapsPerSecond), "aim": .string(c.aim.rawValue),
                    "permessageDeflate": .bool(c.permessageDeflate)],
            "connections": ["attempted": i(s.attempted), "made": i(s.connected), "failed": i(s.failed),
                            "closedEarly": i(s.closedEarly), "connectMs": s.connectTime.summary.json],
            "frames": ["received": i(s.frames), "skipped": i(s.skipped), "skipRatio": n(skipRatio),
                       "perClientPerSecond": n(Self.rounded(framesPerClientSecond)), "clientSeconds": n(Self.rounded(s.connectedSeconds)),
                       "ageMs": s.frameAge.summary.json],
            "taps": taps,
            "bytes": ["in": i(s.bytesIn), "out": i(s.bytesOut),
                      "inPerSecond": n(Self.rounded(Double(s.bytesIn) / seconds)), "outPerSecond": n(Self.rounded(Double(s.bytesOut) / seconds))],
            "errors": counts(s.errors),
            "server": serverValue,
            "slo": .array(checks.map { ["flag": .string($0.flag), "limit": n($0.limit), "value": $0.value.map(n) ?? .null, "breached": .bool($0.breached)] }),
            "passed": .bool(passed),
        ]
    }

    private static func rounded(_ x: Double) -> Double { (x * 10000).rounded() / 10000 }

    static func number(_ x: Double, digits: Int = 1) -> String {
        x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(format: "%.\(digits)f", x)
    }

    /// `512 B`, `12.3 KiB`, `4.5 MiB`.
    static func bytes(_ x: Double) -> String {
        if x < 1024 { return "\(Int(x.rounded())) B" }
        if x < 1024 * 1024 { return String(format: "%.1f KiB", x / 1024) }
        return String(format: "%.1f MiB", x / 1024 / 1024)
    }
}
