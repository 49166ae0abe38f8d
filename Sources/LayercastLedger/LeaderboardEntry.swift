/// One line of a room's leaderboard: a player's coins and packets won in that room's rains.
public struct LeaderboardEntry: Equatable, Sendable {
    /// 1-based position in the ordering (ties get distinct, consecutive ranks).
    public var rank: Int
    public var player: String
    /// The name on the player's latest award, in any room.
    public var name: String
    public var coins: Int
    public var packets: Int

    public init(rank: Int, player: String, name: String, coins: Int, packets: Int) {
        self.rank = rank
        self.player = player
        self.name = name
        self.coins = coins
        self.packets = packets
    }
}
