import LayercastSceneAPI
/// What one player has won in one rain.
public struct RainTally: Equatable, Sendable {
    /// Packets the player claimed.
    public private(set) var packets = 0
    /// Coins the player won.
    public private(set) var coins = 0

    /// An empty tally: nothing won yet.
    public init() {}

    mutating func add(coins paid: Int) {
        packets += 1
        coins += paid
    }
}
