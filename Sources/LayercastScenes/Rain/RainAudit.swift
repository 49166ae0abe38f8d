import Foundation
import LayercastJSON
import LayercastSceneAPI

/// The rain's `RoundAuditor`: re-simulates a recorded rain from its seed, salt, settings and
/// accepted taps and compares the result with the record (the commitment it published, the prize
/// plan, and every award's packet, coins and player); and shows a rain's settings and, once it has
/// ended, its commitment's text and prize plan.
public enum RainAudit: RoundAuditor {
    public static func differences(_ round: RecordedRound) -> [String] {
        guard let row = RainRoundSettings(json: round.settings) else { return ["settings: \(round.settings.prefix(80)) is not a rain's"] }
        guard let settings = RainSettings(row: row, of: round) else { return ["salt: \(round.salt.prefix(80)) is not hex"] }
        if let problem = settings.validationError() { return ["settings: \(problem)"] }
        var lines: [String] = []
        let size = row.size
        let commitment = RainCommitment(settings: settings, size: size)
        if !round.commitment.isEmpty, commitment.digest != round.commitment {
            lines.append("commitment: the rain published \(round.commitment); its seed, salt and settings hash to \(commitment.digest)")
        }
        let plan = PrizePlan(settings: settings).prizes
        for packet in Set(plan.keys).union(round.prizes.keys).sorted() where plan[packet] != round.prizes[packet] {
            lines.append("plan: packet \(packet) pays \(coins(round.prizes[packet])) in the ledger, \(coins(plan[packet])) in the replay")
        }
        var configuration = RainScene.Configuration()
        configuration.size = size
        let taps = round.awards.map(RainReplay.Tap.init)
        let outcomes = RainReplay.run(id: round.id, settings: settings, configuration: configuration, mediaStart: round.mediaStart, taps: taps)
        for (award, outcome) in zip(round.awards, outcomes) {
            let recorded = "packet \(award.item), \(award.coins) coins, to \(award.player)"
            guard let outcome else {
                lines.append("award \(award.id): the ledger has \(recorded); the replay's tap at (\(award.point.x), \(award.point.y)), t = \(award.viewTime) wins nothing")
                continue
            }
            if outcome.packet != award.item || outcome.coins != award.coins || outcome.player != award.player {
                lines.append("award \(award.id): the ledger has \(recorded); the replay gives packet \(outcome.packet), \(outcome.coins) coins, to \(outcome.player)")
            }
        }
        let paid = round.awards.reduce(0) { $0 + $1.coins }
        if paid > settings.pool { lines.append("pool: \(paid) coins awarded, more than the pool of \(settings.pool)") }
        return lines
    }

    public static func pool(_ round: RecordedRound) -> Int {
        RainRoundSettings(json: round.settings)?.pool ?? 0
    }

    /// `settings` and `players`.
    public static func document(_ round: RecordedRound) -> JSONObject {
        guard let row = RainRoundSettings(json: round.settings) else { return [:] }
        return ["settings": row.document, "players": .number(Double(row.players))]
    }

    /// `commitmentText` (when the rain published a commitment and its settings and salt read
    /// back) and `plan`, each paying packet with its coins.
    public static func revealed(_ round: RecordedRound) -> JSONObject {
        var members: JSONObject = [:]
        if let row = RainRoundSettings(json: round.settings), let settings = RainSettings(row: row, of: round), !round.commitment.isEmpty {
            members["commitmentText"] = .string(RainCommitment(settings: settings, size: row.size).text)
        }
        members["plan"] = .array(round.prizes.sorted { $0.key < $1.key }.map {
            ["packet": .number(Double($0.key)), "coins": .number(Double($0.value))]
        })
        return members
    }

    private static func coins(_ value: Int?) -> String { value.map { "\($0) coins" } ?? "nothing" }
}

extension RainScene {
    /// `RainAudit`: a rain is a round of the scene `rain`, its packets the round's items.
    public static var roundAuditor: (any RoundAuditor.Type)? { RainAudit.self }
}
