import LayercastSceneAPI
/// A rule that keeps a tap from claiming a free packet (counted per rule in `/metrics`).
public enum RainRule: String, Sendable, CaseIterable {
    /// The player has claimed `maxAwardsPerPlayer` packets in this rain.
    case maxAwards = "max_awards"
    /// The player has won `maxCoinsPerPlayer` coins in this rain.
    case maxCoins = "max_coins"
    /// The packet has been on screen for less than `minVisible` at the tap's resolution time.
    case tooSoon = "too_soon"
}
