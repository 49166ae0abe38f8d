import Foundation

/// A load campaign (`layercast loadtest --scenario FILE`, docs/loadtest.md "Scenarios"): who
/// joins (populations, each with a behaviour), how many over time (stages), where (one URL or
/// several) and what each population must get (thresholds). Today's flags are the scenario of
/// one counted population (`init(single:)`).
public struct Scenario: Sendable, Equatable {
    /// A group of clients that behave alike.
    public struct Population: Sendable, Equatable {
        public enum Size: Sendable, Equatable {
            /// A share of each stage's target (by weight among the weighted populations).
            case weight(Double)
            /// This many clients for the whole run, joining at `Scenario.ramp` per second from the start.
            case count(Int)
        }

        public var name: String
        public var size: Size
        /// `spectate` joins as a spectator; `tap` joins as a player.
        public var role: LoadConfiguration.Role
        /// Taps per second of each client (players only).
        public var tapsPerSecond = 0.0
        public var aim = LoadConfiguration.AimMode.random
        /// Drag gestures per second of each client (`drag`, players only): each is a `began`,
        /// `dragSteps` `moved` steps 120 points down from it, and an `ended`.
        public var dragsPerSecond = 0.0
        public var dragSteps = 4
        /// Leaves after a random stay and rejoins after a random time away; nil stays.
        public var churn: Churn?
        /// Reconnects after a close it did not ask for, with the page's backoff (`ReconnectBackoff`).
        public var reconnect = false
        /// `ping` messages a second of each client (0: none, as the page); nil: the run's
        /// (`LoadConfiguration.pingInterval`, one every 2 s).
        public var pingsPerSecond: Double?
        /// The most bytes a second each client reads from its socket (a weak link: `ReadBudget`);
        /// nil reads as fast as they come.
        public var readBytesPerSecond: Double?
        /// Acknowledges every frame it gets (`{"type":"ack","n":N}`, as the page does) when the
        /// server's `welcome.features` has `acks`.
        public var acks = false
        public var thresholds = ServiceLevelObjectives()

        public init(name: String, size: Size, role: LoadConfiguration.Role) {
            self.name = name
            self.size = size
            self.role = role
        }

        /// `spectate`, `tap 2/s random`, … for the report.
        public var behaviourText: String {
            var text = role == .spectator ? "spectate"
                : dragsPerSecond > 0 ? "drag \(LoadReport.number(dragsPerSecond))/s in \(dragSteps) steps"
                : tapsPerSecond > 0 ? "tap \(LoadReport.number(tapsPerSecond))/s \(aim.rawValue)" : "play (no taps)"
            if let churn { text += ", churn (stay \(churn.stay.text) s, away \(churn.away.text) s)" }
            if reconnect { text += ", reconnect" }
            if let pingsPerSecond { text += pingsPerSecond == 0 ? ", no pings" : ", \(LoadReport.number(pingsPerSecond)) pings/s" }
            if let readBytesPerSecond { text += ", reads ≤ \(LoadReport.bytes(readBytesPerSecond))/s" }
            if acks { text += ", acks" }
            return text
        }
    }

    /// Seconds drawn uniformly from `min…max`.
    public struct Interval: Sendable, Equatable {
        public var min: Double
        public var max: Double

        public init(_ min: Double, _ max: Double) {
            (self.min, self.max) = (min, max)
        }

        public func random() -> Double { min == max ? min : Double.random(in: min...max) }
        var text: String { min == max ? LoadReport.number(min) : "\(LoadReport.number(min))–\(LoadReport.number(max))" }
    }

    public struct Churn: Sendable, Equatable {
        /// How long a client stays once its handshake completes.
        public var stay: Interval
        /// How long it is away before it joins again.
        public var away: Interval
    }

    /// From `start` to `end` (seconds from the run's start) the weighted populations' target
    /// moves in a straight line from the previous stage's `clients` (0 before the first) to this
    /// one's; `end == start` jumps. Between and after stages the last target holds.
    public struct Stage: Sendable, Equatable {
        public var name: String?
        public var start: Double
        public var end: Double
        public var clients: Int
    }

    public var name: String?
    /// The servers, clients spread over them in turn (client K joins `urls[K % count]`); empty:
    /// the command's `--url`.
    public var urls: [LoadTarget] = []
    public var scene: String?
    public var room: String?
    /// Connections per second of each counted population from the start.
    public var ramp = 100.0
    /// Seconds the run lasts.
    public var duration: Double
    public var populations: [Population]
    public var stages: [Stage] = []
    /// Objectives over every client of the run.
    public var thresholds = ServiceLevelObjectives()

    /// The most clients of each population at once: how many slots it gets.
    public private(set) var slots: [Int] = []
    /// The global index of each population's first slot.
    public private(set) var offsets: [Int] = []

    public init(name: String? = nil, duration: Double, populations: [Population], stages: [Stage] = []) {
        self.name = name
        self.duration = duration
        self.populations = populations
        self.stages = stages
        computeSlots()
    }

    /// Today's flags as a scenario: one counted population of `--clients` at `--ramp`, for `--duration`.
    public init(single configuration: LoadConfiguration) {
        var population = Population(name: configuration.role.rawValue + "s", size: .count(configuration.clients), role: configuration.role)
        population.tapsPerSecond = configuration.tapsPerSecond
        population.aim = configuration.aim
        self.init(duration: configuration.duration, populations: [population])
        ramp = configuration.rampPerSecond
    }

    /// Every client slot of every population.
    public var clients: Int { slots.reduce(0, +) }

    /// The population and slot of client `index` (0…clients−1).
    public func slot(ofClient index: Int) -> (population: Int, slot: Int) {
        var p = 0
        while p + 1 < offsets.count, offsets[p + 1] <= index { p += 1 }
        return (p, index - offsets[p])
    }

    /// The weighted populations' target at `elapsed` seconds (fractional while ramping).
    public func target(at elapsed: Double) -> Double {
        var previous = 0.0
        for stage in stages {
            if elapsed < stage.start { return previous }
            let to = Double(stage.clients)
            if elapsed >= stage.end { previous = to; continue }
            return previous + (to - previous) * (elapsed - stage.start) / (stage.end - stage.start)
        }
        return previous
    }

    /// How many clients of population `p` should be in at `elapsed` seconds.
    public func wanted(population p: Int, at elapsed: Double) -> Int {
        switch populations[p].size {
        case .count(let count):
            return elapsed < 0 ? 0 : min(count, Int((elapsed * ramp).rounded(.down)) + 1)
        case .weight:
            return share(of: Int((target(at: elapsed) + 1e-9).rounded(.down)), population: p)
        }
    }

    /// Population `p`'s part of a total `total` of the weighted populations: the cumulative
    /// weights' floors differenced, so the parts always add up to `total`.
    func share(of total: Int, population p: Int) -> Int {
        var before = 0.0, through = 0.0, sum = 0.0
        for (index, population) in populations.enumerated() {
            guard case .weight(let weight) = population.size else { continue }
            sum += weight
            if index < p { before += weight }
            if index <= p { through += weight }
        }
        guard case .weight = populations[p].size, sum > 0 else { return 0 }
        let total = Double(total)
        return Int((total * through / sum + 1e-9).rounded(.down)) - Int((total * before / sum + 1e-9).rounded(.down))
    }

    mutating func computeSlots() {
        let peak = stages.map(\.clients).max() ?? 0
        slots = populations.indices.map { p in
            switch populations[p].size {
            case .count(let count): return count
            case .weight: return peak == 0 ? 0 : (0...peak).map { share(of: $0, population: p) }.max() ?? 0
            }
        }
        offsets = slots.indices.map { slots[..<$0].reduce(0, +) }
    }
}

/// The page's reconnect policy (public/lib/backoff.js, used by public/lib/connection.js): the
/// n-th delay (n = 0, 1, …) is min(15 s, 0.5 s · 2ⁿ) times a random factor in [0.5, 1.5];
/// the count starts over at a `welcome`.
public struct ReconnectBackoff: Sendable, Equatable {
    public static let base = 0.5
    public static let factor = 2.0
    public static let cap = 15.0
    public static let jitter = 0.5

    public private(set) var attempt = 0

    public init() {}

    /// The next delay in seconds, `random` in [0, 1); advances the attempt count.
    public mutating func next(random: Double = Double.random(in: 0..<1)) -> Double {
        let nominal = min(Self.cap, Self.base * pow(Self.factor, Double(min(attempt, 32))))
        attempt += 1
        return nominal * (1 + Self.jitter * (2 * random - 1))
    }

    public mutating func reset() { attempt = 0 }
}
