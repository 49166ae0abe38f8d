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
    /// What each population measured (`configuration.plan.populations`' order); `stats` is their sum.
    public var populations: [LoadStats] = []
    /// Unix time of the run's start: time 0 of `timeline` and of `--mark-file`'s seconds.
    public var startedAt = 0.0
    /// The run second by second, and its marks (`--html`).
    public var timeline = LoadTimeline()

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
        let scenario = c.scenario
        let title = scenario.map { scenario in
            "layercast loadtest: scenario \(scenario.name ?? c.scenarioPath ?? "") (\(scenario.populations.count) population\(scenario.populations.count == 1 ? "" : "s"), \(c.clients) clients at most) of \(c.scene)/\(c.room) at \(url), \(Self.number(seconds)) s, \(c.workers > 1 ? "\(c.workers) workers × " : "")\(c.threads) thread\(c.threads == 1 ? "" : "s")"
        }
        var lines = [
            title ?? "layercast loadtest: \(c.clients) \(c.role.rawValue)s of \(c.scene)/\(c.room) at \(url), \(Self.number(seconds)) s, ramp \(Self.number(c.rampPerSecond))/s, \(c.workers > 1 ? "\(c.workers) workers × " : "")\(c.threads) thread\(c.threads == 1 ? "" : "s")",
            "connections   made \(s.connected) of \(s.attempted) attempted, failed \(s.failed), closed early \(s.closedEarly)",
            "connect time  \(s.connectTime.summary.text)",
            "frames        \(s.frames) received, \(Self.number(framesPerClientSecond)) per client per second",
            "skipped       \(s.skipped) (ratio \(Self.number(skipRatio, digits: 4)))",
            "frame age     \(s.frameAge.summary.text)",
        ]
        if scenario != nil {
            lines.insert("churn         left \(s.left), rejoined \(s.rejoins); reconnects \(s.reconnects) attempted, \(s.reconnected) reconnected", at: 2)
            lines.insert("reconnect     \(s.reconnectTime.summary.text)", at: 3)
            lines.insert("              first frame \(s.reconnectFrameTime.summary.text)", at: 4)
        }
        if c.role == .player || scenario?.populations.contains(where: { $0.role == .player }) == true {
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
        if let scenario {
            for (index, population) in scenario.populations.enumerated() where index < populations.count {
                lines += Self.populationLines(population, populations[index])
            }
        }
        for check in checks { lines.append("SLO           \(check.text)") }
        return lines.joined(separator: "\n")
    }

    /// A population's block of the text report.
    static func populationLines(_ population: Scenario.Population, _ s: LoadStats) -> [String] {
        let size: String
        switch population.size {
        case .count(let count): size = "count \(count)"
        case .weight(let weight): size = "weight \(number(weight, digits: 2))"
        }
        var lines = [
            "population \(population.name): \(population.behaviourText), \(size)",
            "  connections made \(s.connected) of \(s.attempted) attempted, failed \(s.failed), closed early \(s.closedEarly), left \(s.left), rejoined \(s.rejoins)",
            "  reconnects  \(s.reconnects) attempted, \(s.reconnected) reconnected; time \(s.reconnectTime.summary.text)",
            "              first frame \(s.reconnectFrameTime.summary.text)",
            "  frames      \(s.frames) received\(population.acks ? ", \(s.acksSent) acked" : ""), skipped \(s.skipped) (ratio \(number(FrameSequence.skipRatio(skipped: s.skipped, received: s.frames), digits: 4))); age \(s.frameAge.summary.text)",
        ]
        if population.readBytesPerSecond != nil {
            lines.append("  bytes       in \(s.bytesIn), \(bytes(s.connectedSeconds > 0 ? Double(s.bytesIn) / s.connectedSeconds : 0))/s per client connected")
        }
        if population.dragsPerSecond > 0 {
            lines.append("  drags       \(s.dragsBegun) gestures, \(s.dragMessagesSent) messages sent")
        } else if population.role == .player {
            lines.append("  taps        \(s.tapsSent) sent, \(s.tapsAnswered) answered; tap → result \(s.tapLatency.summary.text); awards \(s.awards), \(s.coins) coins")
        }
        return lines
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
        let value: JSONValue = [
            "run": ["url": .string(url), "scene": .string(c.scene), "room": .string(c.room), "role": .string(c.role.rawValue),
                    "clients": i(c.clients), "rampPerSecond": n(c.rampPerSecond), "seconds": n(seconds), "threads": i(c.threads), "workers": i(c.workers),
                    "tapsPerSecond": n(c.tapsPerSecond), "aim": .string(c.aim.rawValue),
                    "permessageDeflate": .bool(c.permessageDeflate)],
            "connections": ["attempted": i(s.attempted), "made": i(s.connected), "failed": i(s.failed),
                            "closedEarly": i(s.closedEarly), "connectMs": s.connectTime.summary.json],
            "frames": ["received": i(s.frames), "acked": i(s.acksSent), "skipped": i(s.skipped), "skipRatio": n(skipRatio),
                       "perClientPerSecond": n(Self.rounded(framesPerClientSecond)), "clientSeconds": n(Self.rounded(s.connectedSeconds)),
                       "ageMs": s.frameAge.summary.json],
            "taps": taps,
            "bytes": ["in": i(s.bytesIn), "out": i(s.bytesOut),
                      "inPerSecond": n(Self.rounded(Double(s.bytesIn) / seconds)), "outPerSecond": n(Self.rounded(Double(s.bytesOut) / seconds))],
            "errors": counts(s.errors),
            "server": serverValue,
            "scenario": scenarioJSON,
            "populations": populationsJSON,
            "slo": .array(checks.map { ["flag": .string($0.flag), "limit": n($0.limit), "value": $0.value.map(n) ?? .null, "breached": .bool($0.breached)] }),
            "passed": .bool(passed),
        ]
        // Today's flags: the report as it always was, without the scenario's keys.
        guard configuration.scenario == nil, case .object(var object) = value else { return value }
        object["scenario"] = nil
        object["populations"] = nil
        return .object(object)
    }

    /// The scenario's shape (null for today's flags).
    private var scenarioJSON: JSONValue {
        guard let scenario = configuration.scenario else { return .null }
        let stages: [JSONValue] = scenario.stages.map {
            ["name": $0.name.map(JSONValue.string) ?? .null, "start": .number($0.start), "end": .number($0.end), "clients": .number(Double($0.clients))]
        }
        return ["name": scenario.name.map(JSONValue.string) ?? .null, "file": configuration.scenarioPath.map(JSONValue.string) ?? .null,
                "urls": .array(configuration.targets.map { .string("ws://\($0.hostHeader)/ws") }),
                "stages": .array(stages)]
    }

    /// Each population's figures by name (null for today's flags).
    private var populationsJSON: JSONValue {
        guard let scenario = configuration.scenario else { return .null }
        var object: [(String, JSONValue)] = []
        for (index, population) in scenario.populations.enumerated() where index < populations.count {
            let s = populations[index]
            func i(_ x: Int) -> JSONValue { .number(Double(x)) }
            var size: [(String, JSONValue)] = []
            switch population.size {
            case .count(let count): size = [("count", i(count))]
            case .weight(let weight): size = [("weight", .number(weight))]
            }
            var fields: [(String, JSONValue)] = size + [
                ("role", .string(population.role.rawValue)), ("behaviour", .string(population.behaviourText)),
                ("clients", i(scenario.slots[index])),
                ("connections", ["attempted": i(s.attempted), "made": i(s.connected), "failed": i(s.failed), "closedEarly": i(s.closedEarly),
                                 "left": i(s.left), "rejoins": i(s.rejoins), "connectMs": s.connectTime.summary.json]),
                ("reconnects", ["attempted": i(s.reconnects), "reconnected": i(s.reconnected), "timeMs": s.reconnectTime.summary.json,
                                "firstFrameMs": s.reconnectFrameTime.summary.json]),
                ("frames", ["received": i(s.frames), "acked": i(s.acksSent), "skipped": i(s.skipped),
                            "skipRatio": .number(FrameSequence.skipRatio(skipped: s.skipped, received: s.frames)),
                            "clientSeconds": .number(Self.rounded(s.connectedSeconds)), "ageMs": s.frameAge.summary.json]),
            ]
            if population.role == .player {
                fields.append(("taps", ["sent": i(s.tapsSent), "answered": i(s.tapsAnswered), "latencyMs": s.tapLatency.summary.json,
                                        "results": .object(JSONObject(s.tapResults.sorted { $0.key < $1.key }.map { ($0.key, i($0.value)) })),
                                        "awards": i(s.awards), "coins": i(s.coins)]))
            } else {
                fields.append(("taps", .null))
            }
            fields.append(("drags", population.dragsPerSecond > 0 ? ["gestures": i(s.dragsBegun), "messages": i(s.dragMessagesSent)] : .null))
            fields.append(("readBytesPerSecond", population.readBytesPerSecond.map(JSONValue.number) ?? .null))
            fields.append(("acks", .bool(population.acks)))
            fields.append(("bytes", ["in": i(s.bytesIn), "out": i(s.bytesOut),
                                     "inPerClientSecond": .number(Self.rounded(s.connectedSeconds > 0 ? Double(s.bytesIn) / s.connectedSeconds : 0))]))
            fields.append(("errors", .object(JSONObject(s.errors.sorted { $0.key < $1.key }.map { ($0.key, i($0.value)) }))))
            object.append((population.name, .object(JSONObject(fields))))
        }
        return .object(JSONObject(object))
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
