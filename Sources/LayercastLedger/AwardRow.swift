import Foundation

/// One claimed item: who claimed which item of which round (a packet of a rain), for how many
/// coins (0 is a valid award: an item that paid nothing but was claimed), where and when.
public struct AwardRow: Equatable, Sendable {
    /// The ledger's id, in commit order; 0 before `Ledger.recordAward` (which ignores it).
    public var id: Int64
    /// The round's id and the item's index in it.
    public var round: Int64
    public var item: Int
    public var player: String
    /// The player's display name at the time of the award.
    public var name: String
    public var coins: Int
    public var x: Double
    public var y: Double
    /// The media time the player saw when they caught it, and the server's at the claim.
    public var viewTime: Double
    public var serverTime: Double
    /// Stored to the millisecond.
    public var createdAt: Date

    public init(
        id: Int64 = 0, round: Int64, item: Int, player: String, name: String, coins: Int,
        x: Double, y: Double, viewTime: Double, serverTime: Double, createdAt: Date
    ) {
        self.id = id
        self.round = round
        self.item = item
        self.player = player
        self.name = name
        self.coins = coins
        self.x = x
        self.y = y
        self.viewTime = viewTime
        self.serverTime = serverTime
        self.createdAt = createdAt
    }

    /// Throws `invalid` for a NaN position or time, which no ledger stores.
    func refuseNaN() throws(LedgerError) {
        try LedgerError.refuseNaN([("x", x), ("y", y), ("viewTime", viewTime), ("serverTime", serverTime)])
    }
}
