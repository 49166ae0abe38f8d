import Foundation
import LayercastLedger
import LayercastScenes

/// Re-simulates a recorded rain from its seed, salt, settings and accepted taps and compares the
/// result with the ledger: the commitment it published, the prize plan, and every award's packet,
/// coins and player.
public enum RainAudit {
    /// Every way the replay disagrees with the ledger, one line each; empty when it agrees.
    public static func differences(_ rain: RainRecord) -> [String] {
        var lines: [String] = []
        guard let settings = RainSettings(rain) else { return ["salt: \(rain.salt.prefix(80)) is not hex"] }
        if let problem = settings.validationError() { return ["settings: \(problem)"] }
        let size = rain.settings.size
        let commitment = RainCommitment(settings: settings, size: size)
        if !rain.commitment.isEmpty, commitment.digest != rain.commitment {
            lines.append("commitment: the rain published \(rain.commitment); its seed, salt and settings hash to \(commitment.digest)")
        }
        let plan = PrizePlan(settings: settings).prizes
        for packet in Set(plan.keys).union(rain.prizes.keys).sorted() where plan[packet] != rain.prizes[packet] {
            lines.append("plan: packet \(packet) pays \(coins(rain.prizes[packet])) in the ledger, \(coins(plan[packet])) in the replay")
        }
        var configuration = RainScene.Configuration()
        configuration.size = size
        let taps = rain.awards.map(RainReplay.Tap.init)
        let outcomes = RainReplay.run(id: rain.id, settings: settings, configuration: configuration, mediaStart: rain.mediaStart, taps: taps)
        for (award, outcome) in zip(rain.awards, outcomes) {
            let recorded = "packet \(award.packet), \(award.coins) coins, to \(award.player)"
            guard let outcome else {
                lines.append("award \(award.id): the ledger has \(recorded); the replay's tap at (\(award.x), \(award.y)), t = \(award.viewTime) wins nothing")
                continue
            }
            if outcome.packet != award.packet || outcome.coins != award.coins || outcome.player != award.player {
                lines.append("award \(award.id): the ledger has \(recorded); the replay gives packet \(outcome.packet), \(outcome.coins) coins, to \(outcome.player)")
            }
        }
        let paid = rain.awards.reduce(0) { $0 + $1.coins }
        if paid > settings.pool { lines.append("pool: \(paid) coins awarded, more than the pool of \(settings.pool)") }
        return lines
    }

    private static func coins(_ value: Int?) -> String { value.map { "\($0) coins" } ?? "nothing" }
}
