/// A player's totals over every room, with their latest awards.
public struct PlayerSummary: Equatable, Sendable {
    public var player: String
    /// The name on their latest award.
    public var name: String
    public var coins: Int
    public var items: Int
    /// Newest first, at most the limit asked for.
    public var recent: [AwardRow]

    public init(player: String, name: String, coins: Int, items: Int, recent: [AwardRow]) {
        self.player = player
        self.name = name
        self.coins = coins
        self.items = items
        self.recent = recent
    }
}
