import Foundation
import LayercastLedger
import LayercastScenes

// A rain between the scenes and the ledger, in both directions: the settings row the ledger
// stores for a rain that starts, and a recorded rain read back as the scenes' settings, screen
// and taps (for `layercast replay`, a node taking a room over, and the rain documents).
extension RainSettingsRow {
    /// The row that records `rain`'s settings, screen and players.
    public init(_ rain: RainStart) {
        let settings = rain.settings
        self.init(duration: settings.duration, pool: settings.pool, winners: settings.winners,
                  minCoins: settings.minCoins, maxCoins: settings.maxCoins,
                  width: Double(rain.size.width), height: Double(rain.size.height),
                  maxAwardsPerPlayer: settings.maxAwardsPerPlayer, maxCoinsPerPlayer: settings.maxCoinsPerPlayer,
                  minVisible: settings.minVisible, tapRate: settings.tapRate, players: rain.players)
    }

    /// The screen the rain fell on.
    public var size: CGSize { CGSize(width: width, height: height) }
}

extension RainSettings {
    /// The settings `rain` was run with; nil when its salt is not hex.
    public init?(_ rain: RainRecord) {
        guard let salt = RainCommitment.bytes(hex: rain.salt) else { return nil }
        let row = rain.settings
        self.init(duration: row.duration, pool: row.pool, winners: row.winners, minCoins: row.minCoins,
                  maxCoins: row.maxCoins, seed: rain.seed, maxAwardsPerPlayer: row.maxAwardsPerPlayer,
                  maxCoinsPerPlayer: row.maxCoinsPerPlayer, minVisible: row.minVisible, tapRate: row.tapRate, salt: salt)
    }
}

extension RainReplay.Tap {
    /// The tap that won `award`.
    public init(_ award: AwardRow) {
        self.init(player: award.player, name: award.name, point: CGPoint(x: award.x, y: award.y),
                  viewTime: award.viewTime, serverTime: award.serverTime)
    }
}
