import Foundation
import LayercastJSON
import LayercastLedger

/// `layercast replay` over any number of rains: each rain's verdict, in the order added, and the
/// totals. A running rain is listed but not replayed (its awards are not all in yet).
public struct LedgerAudit {
    /// One rain's verdict.
    public struct Entry: Sendable {
        public let id: Int64
        public let room: String
        public let status: RainStatus
        public let seed: UInt64
        public let prizes: Int
        public let awards: Int
        public let coins: Int
        public let pool: Int
        /// `RainAudit.differences`: empty when the replay agrees; nil when not replayed (running).
        public let differences: [String]?

        public var verdict: Verdict {
            guard let differences else { return .running }
            return differences.isEmpty ? .agrees : .disagrees
        }

        /// The line `layercast replay` prints for it, then one indented line per difference.
        public var lines: [String] {
            switch verdict {
            case .running:
                return ["rain \(id) (running): not replayed, it is still running"]
            case .agrees:
                return ["rain \(id) (\(status.rawValue), seed \(seed)): plan of \(prizes) prizes agrees; "
                    + "\(awards) awards, \(coins) coins, replayed identically"]
            case .disagrees:
                let differences = differences ?? []
                return ["rain \(id): the replay disagrees with the ledger in \(differences.count) place(s):"]
                    + differences.map { "  \($0)" }
            }
        }
    }

    /// What the replay of one rain found.
    public enum Verdict: String, Sendable {
        case agrees, disagrees
        /// Not replayed: the rain is still running.
        case running
    }

    public private(set) var entries: [Entry] = []

    public init() {}

    /// Replays `rain` (unless it is running) and keeps its verdict.
    public mutating func add(_ rain: RainRecord) {
        entries.append(Entry(
            id: rain.id, room: rain.room, status: rain.status, seed: rain.seed, prizes: rain.prizes.count,
            awards: rain.awards.count, coins: rain.awards.reduce(0) { $0 + $1.coins }, pool: rain.settings.pool,
            differences: rain.status == .running ? nil : RainAudit.differences(rain)))
    }

    public var agreeing: Int { entries.count { $0.verdict == .agrees } }
    public var disagreeing: Int { entries.count { $0.verdict == .disagrees } }
    public var running: Int { entries.count { $0.verdict == .running } }

    /// One line of totals over the replayed rains.
    public var summary: String {
        let replayed = entries.filter { $0.verdict != .running }
        return "\(entries.count) rain(s): \(agreeing) replayed identically, \(disagreeing) disagree, "
            + "\(running) still running (not replayed); \(replayed.reduce(0) { $0 + $1.awards }) awards and "
            + "\(replayed.reduce(0) { $0 + $1.coins }) coins checked"
    }

    /// The report as JSON (docs/operations.md, "Auditing a night of rains").
    public func report(ledger: String) -> JSONValue {
        let rains: [JSONValue] = entries.map { entry in
            [
                "rain": .number(Double(entry.id)), "room": .string(entry.room), "status": .string(entry.status.rawValue),
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
