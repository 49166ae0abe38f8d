import Foundation
import LayercastEngine

/// One recorded award of a round: the item a player claimed, for how many coins, where and when.
public struct RecordedAward: Equatable, Sendable {
    /// The award's id in the records, in commit order.
    public var id: Int64
    /// The item claimed, as the scene numbers its prizes.
    public var item: Int
    /// The coins awarded.
    public var coins: Int
    /// The id of the player awarded.
    public var player: String
    /// The player's display name at the time of the award.
    public var name: String
    /// Where the tap was, in scene coordinates.
    public var point: CGPoint
    /// The media time the player saw when they claimed it, and the server's at the claim.
    public var viewTime: CFTimeInterval
    /// The room's media time when the tap arrived.
    public var serverTime: CFTimeInterval

    /// An award as the records keep it.
    public init(id: Int64, item: Int, coins: Int, player: String, name: String, point: CGPoint,
                viewTime: CFTimeInterval, serverTime: CFTimeInterval) {
        self.id = id
        self.item = item
        self.coins = coins
        self.player = player
        self.name = name
        self.point = point
        self.viewTime = viewTime
        self.serverTime = serverTime
    }
}
