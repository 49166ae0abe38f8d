/// One line of a room's leaderboard: a player's coins and items won in that room's rounds.
public struct LeaderboardEntry: Equatable, Sendable {
    /// 1-based position in the ordering (ties get distinct, consecutive ranks).
    public var rank: Int
    public var player: String
    /// The name on the player's latest award, in any room.
    public var name: String
    public var coins: Int
    public var items: Int

    public init(rank: Int, player: String, name: String, coins: Int, items: Int) {
        self.rank = rank
        self.player = player
        self.name = name
        self.coins = coins
        self.items = items
    }
}
