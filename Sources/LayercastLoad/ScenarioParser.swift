import Foundation
import Yams

/// Why a scenario file was refused: where (its line, and the key's path) and what.
public struct ScenarioError: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String
    /// 1-based; nil when the parser could not say.
    public var line: Int?
    /// The key's path, e.g. `populations[1].weight`; empty for the whole file.
    public var path: String
    public var message: String

    /// `rain-night.yaml:12: populations[1].weight: must be a number > 0`.
    public var description: String {
        var text = file
        if let line { text += ":\(line)" }
        text += ": "
        if !path.isEmpty { text += path + ": " }
        return text + message
    }
}

/// Reads a scenario file (docs/loadtest.md, "Scenarios"): YAML, or JSON (which is read as
/// YAML: a JSON document is one), through Yams, so every refusal names the line. Unknown keys,
/// out-of-range values, overlapping stages and non-loopback URLs (unless `allowedRemote` names
/// the host) are refused.
public enum ScenarioParser {
    public static let maximumStages = 100
    public static let maximumPopulations = 32
    public static let maximumURLs = 64
    /// The server's limit of drag messages a second on one connection (protocol.md, "Limits").
    public static let maximumDragMessages = 120.0
    /// The range of a population's `readBytesPerSecond`: from a link that takes a few seconds
    /// over a full frame of a busy scene to one no loopback run would notice (1 GiB/s).
    public static let readBytesPerSecondRange = 256.0...1_073_741_824.0

    /// Reads and checks the file at `path`.
    public static func load(path: String, allowedRemote: [String] = []) throws(ScenarioError) -> Scenario {
        let name = (path as NSString).lastPathComponent
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ScenarioError(file: name, line: nil, path: "", message: "cannot read \(path)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ScenarioError(file: name, line: nil, path: "", message: "not UTF-8 text")
        }
        return try parse(text, file: name, allowedRemote: allowedRemote)
    }

    /// Parses and checks scenario text; `file` names it in errors.
    public static func parse(_ text: String, file: String = "scenario", allowedRemote: [String] = []) throws(ScenarioError) -> Scenario {
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw syntaxError(error, file: file)
        } catch {
            throw ScenarioError(file: file, line: nil, path: "", message: "\(error)")
        }
        guard let root else { throw ScenarioError(file: file, line: 1, path: "", message: "empty file") }
        return try Reader(file: file, allowedRemote: allowedRemote).scenario(root)
    }

    private static func syntaxError(_ error: YamlError, file: String) -> ScenarioError {
        switch error {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _), .composer(_, let problem, let mark, _):
            return ScenarioError(file: file, line: mark.line, path: "", message: "not valid YAML or JSON: \(problem)")
        case .duplicatedKeysInMapping(let duplicates, let context):
            return ScenarioError(file: file, line: context.mark.line, path: "", message: "duplicate key \(duplicates.joined(separator: ", "))")
        default:
            return ScenarioError(file: file, line: nil, path: "", message: "not valid YAML or JSON: \(error)")
        }
    }
}

/// One pass over the composed document, keeping the path for errors.
private struct Reader {
    let file: String
    let allowedRemote: [String]

    func fail(_ node: Node?, _ path: String, _ message: String) -> ScenarioError {
        ScenarioError(file: file, line: node?.mark?.line, path: path, message: message)
    }

    /// The mapping's pairs by key, refusing keys not in `allowed` and non-mappings.
    func mapping(_ node: Node, _ path: String, allowed: [String]) throws(ScenarioError) -> [String: Node] {
        guard case .mapping(let mapping) = node else { throw fail(node, path, "must be a mapping of keys (\(allowed.joined(separator: ", ")))") }
        var result: [String: Node] = [:]
        for (key, value) in mapping {
            guard case .scalar(let scalar) = key, case let name = scalar.string else { throw fail(key, path, "keys must be strings") }
            guard allowed.contains(name) else {
                throw fail(key, join(path, name), "unknown key (expected one of \(allowed.joined(separator: ", ")))")
            }
            result[name] = value
        }
        return result
    }

    func sequence(_ node: Node, _ path: String) throws(ScenarioError) -> [Node] {
        guard case .sequence(let sequence) = node else { throw fail(node, path, "must be a list") }
        return Array(sequence)
    }

    func string(_ node: Node, _ path: String) throws(ScenarioError) -> String {
        guard case .scalar(let scalar) = node, scalar.style != .plain || node.null == nil else { throw fail(node, path, "must be a string") }
        return scalar.string
    }

    func number(_ node: Node, _ path: String, _ requirement: String, _ accept: (Double) -> Bool) throws(ScenarioError) -> Double {
        guard case .scalar(let scalar) = node, scalar.style == .plain || scalar.style == .any, let value = node.float ?? node.int.map(Double.init),
              value.isFinite, accept(value) else {
            throw fail(node, path, "must be \(requirement)")
        }
        return value
    }

    func integer(_ node: Node, _ path: String, _ requirement: String, _ range: ClosedRange<Int>) throws(ScenarioError) -> Int {
        let value = try number(node, path, requirement) { _ in true }
        guard value == value.rounded(), let int = Int(exactly: value), range.contains(int) else { throw fail(node, path, "must be \(requirement)") }
        return int
    }

    func bool(_ node: Node, _ path: String) throws(ScenarioError) -> Bool {
        guard case .scalar = node, let value = node.bool else { throw fail(node, path, "must be true or false") }
        return value
    }

    func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    func scenario(_ root: Node) throws(ScenarioError) -> Scenario {
        let keys = ["name", "url", "urls", "scene", "room", "ramp", "duration", "populations", "stages", "thresholds"]
        let top = try mapping(root, "", allowed: keys)
        var urls: [LoadTarget] = []
        if top["url"] != nil, let list = top["urls"] {
            throw fail(list, "urls", "give url or urls, not both")
        }
        if let node = top["url"] { urls = [try target(node, "url")] }
        if let node = top["urls"] {
            let list = try sequence(node, "urls")
            guard (1...ScenarioParser.maximumURLs).contains(list.count) else { throw fail(node, "urls", "must list 1…\(ScenarioParser.maximumURLs) URLs") }
            for (index, item) in list.enumerated() { urls.append(try target(item, "urls[\(index)]")) }
        }
        guard let populationsNode = top["populations"] else { throw fail(root, "populations", "missing: a scenario needs at least one population") }
        let populationNodes = try sequence(populationsNode, "populations")
        guard (1...ScenarioParser.maximumPopulations).contains(populationNodes.count) else {
            throw fail(populationsNode, "populations", "must list 1…\(ScenarioParser.maximumPopulations) populations")
        }
        var populations: [Scenario.Population] = []
        for (index, node) in populationNodes.enumerated() {
            let population = try population(node, "populations[\(index)]")
            if populations.contains(where: { $0.name == population.name }) {
                throw fail(node, "populations[\(index)].name", "\(population.name.debugDescription) names another population too")
            }
            populations.append(population)
        }
        var stages: [Scenario.Stage] = []
        if let node = top["stages"] {
            let list = try sequence(node, "stages")
            guard list.count <= ScenarioParser.maximumStages else { throw fail(node, "stages", "at most \(ScenarioParser.maximumStages) stages") }
            for (index, item) in list.enumerated() {
                let stage = try stage(item, "stages[\(index)]")
                if let previous = stages.last, stage.start < previous.end {
                    throw fail(item, "stages[\(index)].start", "overlaps stages[\(index - 1)] (starts at \(LoadReport.number(stage.start)) s, before its end at \(LoadReport.number(previous.end)) s); stages are in time order and do not overlap")
                }
                stages.append(stage)
            }
        }
        let weighted = populations.contains { if case .weight = $0.size { true } else { false } }
        if weighted, stages.isEmpty {
            throw fail(top["stages"] ?? populationsNode, "stages", "weighted populations need stages (the target counts over time); or give each population a count")
        }
        if !weighted, !stages.isEmpty {
            throw fail(top["stages"], "stages", "stages set the weighted populations' target, and every population here has a count")
        }
        let lastEnd = stages.last?.end ?? 0
        let duration: Double
        if let node = top["duration"] {
            duration = try number(node, "duration", "seconds > 0, at most \(Int(LoadConfiguration.maximumDuration))") { $0 > 0 && $0 <= LoadConfiguration.maximumDuration }
            guard duration >= lastEnd else { throw fail(node, "duration", "ends before the last stage does (\(LoadReport.number(lastEnd)) s)") }
        } else {
            guard lastEnd > 0 else { throw fail(root, "duration", "missing: give the run's seconds (or stages, whose last end is the default)") }
            guard lastEnd <= LoadConfiguration.maximumDuration else { throw fail(top["stages"], "stages", "the last stage ends after \(Int(LoadConfiguration.maximumDuration)) s") }
            duration = lastEnd
        }
        var scenario = Scenario(name: try top["name"].map { node throws(ScenarioError) in try string(node, "name") },
                                duration: duration, populations: populations, stages: stages)
        scenario.urls = urls
        if let node = top["scene"] {
            let scene = try string(node, "scene")
            guard !scene.isEmpty, scene.utf8.count <= 64, scene.utf8.allSatisfy(LoadConfiguration.isNameByte) else { throw fail(node, "scene", "must be a scene id (letters, digits, _ and -)") }
            scenario.scene = scene
        }
        if let node = top["room"] {
            let room = try string(node, "room")
            guard LoadConfiguration.isRoomName(room) else { throw fail(node, "room", "must be 1–32 of A–Z a–z 0–9 _ -") }
            scenario.room = room
        }
        if let node = top["ramp"] {
            scenario.ramp = try number(node, "ramp", "connections per second > 0") { $0 > 0 }
        }
        if let node = top["thresholds"] { scenario.thresholds = try thresholds(node, "thresholds") }
        guard scenario.clients >= 1 else { throw fail(root, "", "no client would ever join (every count and stage target is 0)") }
        guard scenario.clients <= LoadConfiguration.maximumClients else {
            throw fail(root, "", "\(scenario.clients) clients at once at the most, above the limit of \(LoadConfiguration.maximumClients)")
        }
        return scenario
    }

    func target(_ node: Node, _ path: String) throws(ScenarioError) -> LoadTarget {
        let url = try string(node, path)
        do {
            return try LoadTarget(url: url, allowedRemote: allowedRemote)
        } catch {
            throw fail(node, path, error.description.replacingOccurrences(of: "--url", with: "the URL"))
        }
    }

    func population(_ node: Node, _ path: String) throws(ScenarioError) -> Scenario.Population {
        let keys = ["name", "weight", "count", "behaviour", "taps", "aim", "drags", "steps", "churn", "reconnect", "pings", "readBytesPerSecond", "acks", "thresholds"]
        let fields = try mapping(node, path, allowed: keys)
        guard let nameNode = fields["name"] else { throw fail(node, join(path, "name"), "missing: each population is named (it names its part of the report)") }
        let name = try string(nameNode, join(path, "name"))
        guard LoadConfiguration.isRoomName(name) else { throw fail(nameNode, join(path, "name"), "must be 1–32 of A–Z a–z 0–9 _ -") }
        let size: Scenario.Population.Size
        switch (fields["weight"], fields["count"]) {
        case (let weight?, nil):
            size = .weight(try number(weight, join(path, "weight"), "a number > 0") { $0 > 0 })
        case (nil, let count?):
            size = .count(try integer(count, join(path, "count"), "a whole number of clients, 1…\(LoadConfiguration.maximumClients)", 1...LoadConfiguration.maximumClients))
        case (_?, let count?):
            throw fail(count, join(path, "count"), "give weight or count, not both")
        case (nil, nil):
            throw fail(node, path, "needs a weight (a share of the stages' target) or a count")
        }
        let behaviourNode = fields["behaviour"]
        let behaviour = try behaviourNode.map { node throws(ScenarioError) in try string(node, join(path, "behaviour")) } ?? "spectate"
        var population: Scenario.Population
        switch behaviour {
        case "spectate":
            population = .init(name: name, size: size, role: .spectator)
            if let taps = fields["taps"] { throw fail(taps, join(path, "taps"), "spectators do not tap (behaviour: tap)") }
            if let aim = fields["aim"] { throw fail(aim, join(path, "aim"), "spectators do not aim (behaviour: tap)") }
        case "tap":
            population = .init(name: name, size: size, role: .player)
            population.tapsPerSecond = try fields["taps"].map { node throws(ScenarioError) in
                try number(node, join(path, "taps"), "taps per second, 0…20 (the server's limit per player)") { (0...LoadConfiguration.maximumTapRate).contains($0) }
            } ?? 1
            if let node = fields["aim"] {
                guard let aim = LoadConfiguration.AimMode(rawValue: try string(node, join(path, "aim"))) else { throw fail(node, join(path, "aim"), "must be random or aim") }
                population.aim = aim
            }
        case "drag":
            population = .init(name: name, size: size, role: .player)
            if let taps = fields["taps"] { throw fail(taps, join(path, "taps"), "draggers do not tap (behaviour: tap)") }
            if let aim = fields["aim"] { throw fail(aim, join(path, "aim"), "draggers do not aim (behaviour: tap)") }
            population.dragsPerSecond = try fields["drags"].map { node throws(ScenarioError) in
                try number(node, join(path, "drags"), "drag gestures per second, 0…10") { (0...10).contains($0) }
            } ?? 1
            if let node = fields["steps"] {
                population.dragSteps = try integer(node, join(path, "steps"), "moved steps per gesture, 1…20", 1...20)
            }
            let messages = population.dragsPerSecond * Double(population.dragSteps + 2)
            guard messages <= ScenarioParser.maximumDragMessages else {
                throw fail(fields["drags"] ?? node, join(path, "drags"),
                           "drags × (steps + 2) is \(LoadReport.number(messages)) messages a second, over the server's \(LoadReport.number(ScenarioParser.maximumDragMessages)) per connection")
            }
        default:
            throw fail(behaviourNode, join(path, "behaviour"), "must be spectate, tap or drag")
        }
        if behaviour != "drag" {
            for key in ["drags", "steps"] {
                if let stray = fields[key] { throw fail(stray, join(path, key), "only draggers drag (behaviour: drag)") }
            }
        }
        if let node = fields["churn"] {
            let churn = try mapping(node, join(path, "churn"), allowed: ["stay", "away"])
            guard let stay = churn["stay"], let away = churn["away"] else { throw fail(node, join(path, "churn"), "needs stay and away (seconds, or [min, max])") }
            population.churn = .init(stay: try interval(stay, join(path, "churn.stay"), minimum: 0.1),
                                     away: try interval(away, join(path, "churn.away"), minimum: 0))
        }
        if let node = fields["reconnect"] { population.reconnect = try bool(node, join(path, "reconnect")) }
        if let node = fields["pings"] {
            population.pingsPerSecond = try number(node, join(path, "pings"), "ping messages a second, 0…10 (0: none, as the page)") { (0...10).contains($0) }
        }
        if let node = fields["readBytesPerSecond"] {
            let range = ScenarioParser.readBytesPerSecondRange
            population.readBytesPerSecond = try number(node, join(path, "readBytesPerSecond"),
                                                       "bytes a second, \(LoadReport.number(range.lowerBound))…\(LoadReport.number(range.upperBound))") { range.contains($0) }
        }
        if let node = fields["acks"] { population.acks = try bool(node, join(path, "acks")) }
        if let node = fields["thresholds"] { population.thresholds = try thresholds(node, join(path, "thresholds")) }
        return population
    }

    func interval(_ node: Node, _ path: String, minimum: Double) throws(ScenarioError) -> Scenario.Interval {
        let requirement = "seconds ≥ \(LoadReport.number(minimum)), or [min, max] of them"
        if case .sequence(let list) = node {
            guard list.count == 2 else { throw fail(node, path, "must be \(requirement)") }
            let low = try number(list[0], path + "[0]", "seconds ≥ \(LoadReport.number(minimum))") { $0 >= minimum && $0 <= LoadConfiguration.maximumDuration }
            let high = try number(list[1], path + "[1]", "seconds ≥ min (\(LoadReport.number(low)))") { $0 >= low && $0 <= LoadConfiguration.maximumDuration }
            return .init(low, high)
        }
        let value = try number(node, path, requirement) { $0 >= minimum && $0 <= LoadConfiguration.maximumDuration }
        return .init(value, value)
    }

    func stage(_ node: Node, _ path: String) throws(ScenarioError) -> Scenario.Stage {
        let fields = try mapping(node, path, allowed: ["name", "start", "end", "clients"])
        guard let startNode = fields["start"], let endNode = fields["end"], let clientsNode = fields["clients"] else {
            throw fail(node, path, "needs start, end (seconds from the run's start) and clients (the target at its end)")
        }
        let start = try number(startNode, join(path, "start"), "seconds ≥ 0") { $0 >= 0 && $0 <= LoadConfiguration.maximumDuration }
        let end = try number(endNode, join(path, "end"), "seconds ≥ start (\(LoadReport.number(start)))") { $0 >= start && $0 <= LoadConfiguration.maximumDuration }
        let clients = try integer(clientsNode, join(path, "clients"), "a whole number of clients, 0…\(LoadConfiguration.maximumClients)", 0...LoadConfiguration.maximumClients)
        let name = try fields["name"].map { node throws(ScenarioError) in try string(node, join(path, "name")) }
        return .init(name: name, start: start, end: end, clients: clients)
    }

    func thresholds(_ node: Node, _ path: String) throws(ScenarioError) -> ServiceLevelObjectives {
        let keys = ["maxP99FrameAgeMs", "maxSkipRatio", "maxP99TapMs", "maxP99ReconnectMs", "maxP99ReconnectFirstFrameMs"]
        let fields = try mapping(node, path, allowed: keys)
        func limit(_ key: String) throws(ScenarioError) -> Double? {
            try fields[key].map { node throws(ScenarioError) in try number(node, join(path, key), "a number ≥ 0") { $0 >= 0 } }
        }
        var objectives = ServiceLevelObjectives(maxSkipRatio: try limit("maxSkipRatio"), maxP99FrameAgeMs: try limit("maxP99FrameAgeMs"), maxP99TapMs: try limit("maxP99TapMs"))
        objectives.maxP99ReconnectMs = try limit("maxP99ReconnectMs")
        objectives.maxP99ReconnectFirstFrameMs = try limit("maxP99ReconnectFirstFrameMs")
        return objectives
    }
}
