import Foundation
import LayercastJSON
import LayercastLedger
import LayercastSceneAPI

/// `layercast replay` over any number of rounds (rains are the rounds of the scene `rain`): each
/// round's verdict, in the order added, and the totals. A running round is listed but not replayed
/// (its awards are not all in yet). Each is replayed by its scene's `RoundAuditor`.
public struct LedgerAudit {
    /// One round's verdict.
    public struct Entry: Sendable {
        public let id: Int64
        /// The id of its scene.
        public let scene: String
        public let room: String
        public let status: RoundStatus
        public let seed: UInt64
        public let prizes: Int
        public let awards: Int
        public let coins: Int
        public let pool: Int
        /// `RoundAuditor.differences`: empty when the replay agrees; nil when not replayed (running).
        public let differences: [String]?

        public var verdict: Verdict {
            guard let differences else { return .running }
            return differences.isEmpty ? .agrees : .disagrees
        }

        /// The line `layercast replay` prints for it, then one indented line per difference.
        public var lines: [String] {
            switch verdict {
            case .running:
                return ["\(scene) \(id) (running): not replayed, it is still running"]
            case .agrees:
                return ["\(scene) \(id) (\(status.rawValue), seed \(seed)): plan of \(prizes) prizes agrees; "
                    + "\(awards) awards, \(coins) coins, replayed identically"]
            case .disagrees:
                let differences = differences ?? []
                return ["\(scene) \(id): the replay disagrees with the ledger in \(differences.count) place(s):"]
                    + differences.map { "  \($0)" }
            }
        }
    }

    /// What the replay of one round found.
    public enum Verdict: String, Sendable {
        case agrees, disagrees
        /// Not replayed: the round is still running.
        case running
    }

    public private(set) var entries: [Entry] = []

    public init() {}

    /// Replays `round` with `auditor`, its scene's (unless it is running), and keeps its verdict.
    public mutating func add(_ round: RoundRecord, auditor: any RoundAuditor.Type) {
        let recorded = RecordedRound(round)
        entries.append(Entry(
            id: round.id, scene: round.scene, room: round.room, status: round.status, seed: round.seed, prizes: round.prizes.count,
            awards: round.awards.count, coins: round.awards.reduce(0) { $0 + $1.coins }, pool: auditor.pool(recorded),
            differences: round.status == .running ? nil : auditor.differences(recorded)))
    }

    public var agreeing: Int { entries.count { $0.verdict == .agrees } }
    public var disagreeing: Int { entries.count { $0.verdict == .disagrees } }
    public var running: Int { entries.count { $0.verdict == .running } }

    /// One line of totals over the replayed rounds, which it calls by their scene's id (`3
    /// rain(s): …`), `round` when they are of several scenes, and `rain` when there is none (the
    /// line's word before rounds of other scenes were recorded).
    public var summary: String {
        let replayed = entries.filter { $0.verdict != .running }
        return "\(entries.count) \(noun)(s): \(agreeing) replayed identically, \(disagreeing) disagree, "
            + "\(running) still running (not replayed); \(replayed.reduce(0) { $0 + $1.awards }) awards and "
            + "\(replayed.reduce(0) { $0 + $1.coins }) coins checked"
    }

    /// What `summary` calls the rounds.
    private var noun: String {
        let scenes = Set(entries.map(\.scene))
        return scenes.count == 1 ? scenes.first! : scenes.isEmpty ? "rain" : "round"
    }

    /// The report as JSON (docs/operations.md, "Auditing a night of rains").
    public func report(ledger: String) -> JSONValue {
        let rains: [JSONValue] = entries.map { entry in
            [
                "rain": .number(Double(entry.id)), "scene": .string(entry.scene), "room": .string(entry.room), "status": .string(entry.status.rawValue),
                "verdict": .string(entry.verdict.rawValue), "seed": .number(Double(entry.seed)), "prizes": .number(Double(entry.prizes)),
                "awards": .number(Double(entry.awards)), "coins": .number(Double(entry.coins)),
                "pool": .number(Double(entry.pool)), "differences": .array((entry.differences ?? []).map { .string($0) }),
            ]
        }
        return [
            "ledger": .string(ledger), "rains": .array(rains),
            "agreeing": .number(Double(agreeing)), "disagreeing": .number(Double(disagreeing)),
            "running": .number(Double(running)),
        ]
    }
}
