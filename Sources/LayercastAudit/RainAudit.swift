import Foundation
import LayercastLedger
import LayercastScenes

/// Re-simulates a recorded rain from its seed, settings and accepted taps and compares the
/// result with the ledger: the prize plan, and every award's packet, coins and player.
public enum RainAudit {
    /// The settings a ledger rain was run with.
    public static func settings(of rain: RainRecord) -> RainSettings {
        RainSettings(duration: rain.settings.duration, pool: rain.settings.pool, winners: rain.settings.winners,
                     minCoins: rain.settings.minCoins, maxCoins: rain.settings.maxCoins, seed: rain.seed)
    }

    /// Every way the replay disagrees with the ledger, one line each; empty when it agrees.
    public static func differences(_ rain: RainRecord) -> [String] {
        var lines: [String] = []
        let settings = settings(of: rain)
        if let problem = settings.validationError() { return ["settings: \(problem)"] }
        let plan = PrizePlan(settings: settings).prizes
        for packet in Set(plan.keys).union(rain.prizes.keys).sorted() where plan[packet] != rain.prizes[packet] {
            lines.append("plan: packet \(packet) pays \(coins(rain.prizes[packet])) in the ledger, \(coins(plan[packet])) in the replay")
        }
        var configuration = RainScene.Configuration()
        configuration.size = CGSize(width: rain.settings.width, height: rain.settings.height)
        let taps = rain.awards.map {
            RainReplay.Tap(player: $0.player, name: $0.name, point: CGPoint(x: $0.x, y: $0.y), viewTime: $0.viewTime, serverTime: $0.serverTime)
        }
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
