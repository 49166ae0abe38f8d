import Foundation
import LayercastEngine
import LayercastSceneAPI

/// The claims of a rain: whether a tap may claim a free packet under the rain's per-player
/// rules, what the claim pays, and what a committed one records.
extension RainScene.ActiveRain {
    /// The rule that keeps `player` from claiming a free packet that has been on screen for
    /// `age` seconds at the tap's resolution time, or nil: its limits first (`maxAwards`, then
    /// `maxCoins`), then `minVisible` to the microsecond (`tooSoon`).
    func refusal(to player: String, age: CFTimeInterval) -> RainRule? {
        let tally = tallies[player] ?? RainTally()
        if settings.maxAwardsPerPlayer > 0, tally.packets >= settings.maxAwardsPerPlayer { return .maxAwards }
        if settings.maxCoinsPerPlayer > 0, tally.coins >= settings.maxCoinsPerPlayer { return .maxCoins }
        // To the microsecond that wire times are written in: 5.3 − 5.0 is 0.29999… in binary.
        if age < settings.minVisible - 1e-6 { return .tooSoon }
        return nil
    }

    /// The claim of free packet `packet` by `player`, tapped at `point` with the presentation at
    /// `time`: the plan's prize (0 when it does not pay), cut to what the player's coin limit leaves.
    func claim(of packet: Int, by player: String, at point: CGPoint, time: CFTimeInterval) -> Claim {
        let prize = plan.prizes[packet] ?? 0
        let won = tallies[player]?.coins ?? 0
        let coins = settings.maxCoinsPerPlayer > 0 ? min(prize, settings.maxCoinsPerPlayer - won) : prize
        return Claim(round: id, item: packet, coins: coins, point: point, time: time)
    }

    /// Records committed `claim` as `player`'s.
    mutating func record(_ claim: Claim, for player: String) {
        claimed[claim.item] = player
        paid[claim.item] = claim.coins
        tallies[player, default: RainTally()].add(coins: claim.coins)
    }
}
