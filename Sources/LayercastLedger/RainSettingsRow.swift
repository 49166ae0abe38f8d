/// The settings a rain was played with, as stored in its `rains` row.
public struct RainSettingsRow: Equatable, Sendable {
    public var duration: Double
    public var pool: Int
    public var winners: Int
    public var minCoins: Int
    public var maxCoins: Int
    public var width: Double
    public var height: Double
    /// Per-player limits (0: none), the on-screen rule in seconds and taps per second.
    public var maxAwardsPerPlayer: Int
    public var maxCoinsPerPlayer: Int
    public var minVisible: Double
    public var tapRate: Double
    /// The players in the room when the rain was made, whom its fair-share limits divide by.
    public var players: Int

    public init(duration: Double, pool: Int, winners: Int, minCoins: Int, maxCoins: Int, width: Double, height: Double,
                maxAwardsPerPlayer: Int = 0, maxCoinsPerPlayer: Int = 0, minVisible: Double = 0, tapRate: Double = 20,
                players: Int = 0) {
        self.duration = duration
        self.pool = pool
        self.winners = winners
        self.minCoins = minCoins
        self.maxCoins = maxCoins
        self.width = width
        self.height = height
        self.maxAwardsPerPlayer = maxAwardsPerPlayer
        self.maxCoinsPerPlayer = maxCoinsPerPlayer
        self.minVisible = minVisible
        self.tapRate = tapRate
        self.players = players
    }
}
