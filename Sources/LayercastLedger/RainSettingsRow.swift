/// The settings a rain was played with, as stored in its `rains` row.
public struct RainSettingsRow: Equatable, Sendable {
    public var duration: Double
    public var pool: Int
    public var winners: Int
    public var minCoins: Int
    public var maxCoins: Int
    public var width: Double
    public var height: Double

    public init(duration: Double, pool: Int, winners: Int, minCoins: Int, maxCoins: Int, width: Double, height: Double) {
        self.duration = duration
        self.pool = pool
        self.winners = winners
        self.minCoins = minCoins
        self.maxCoins = maxCoins
        self.width = width
        self.height = height
    }
}
