import Foundation

/// One claimed packet: who caught which packet of which rain, for how many coins (0 is a valid
/// award: a packet that paid nothing but was claimed), where and when.
public struct AwardRow: Equatable, Sendable {
    /// The ledger's id, in commit order; 0 before `Ledger.recordAward` (which ignores it).
    public var id: Int64
    public var rain: Int64
    public var packet: Int
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
        id: Int64 = 0, rain: Int64, packet: Int, player: String, name: String, coins: Int,
        x: Double, y: Double, viewTime: Double, serverTime: Double, createdAt: Date
    ) {
        self.id = id
        self.rain = rain
        self.packet = packet
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
