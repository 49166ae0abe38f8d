import Foundation
import LayercastLedger
import LayercastSceneAPI

// A round between the ledger and the scenes, in both directions: the row the ledger stores for a
// round that starts, and a stored round read back as the scenes see it (for `layercast replay`,
// a node taking a room over, and the round documents).
extension NewRound {
    /// The row that records `round`, created at `now`.
    public init(_ round: RoundStart, at now: Date) {
        self.init(scene: round.scene, room: round.room, seed: round.seed, salt: round.salt, commitment: round.commitment,
                  settings: round.settings, mediaStart: round.mediaStart, prizes: round.prizes, createdAt: now)
    }
}

extension RecordedRound {
    /// The round `record` holds, with its awards in commit order.
    public init(_ record: RoundRecord) {
        self.init(id: record.id, scene: record.scene, room: record.room, seed: record.seed, salt: record.salt,
                  commitment: record.commitment, settings: record.settings, mediaStart: record.mediaStart, prizes: record.prizes,
                  awards: record.awards.map(RecordedAward.init))
    }
}

extension RecordedAward {
    /// The award `row` holds.
    public init(_ row: AwardRow) {
        self.init(id: row.id, item: row.item, coins: row.coins, player: row.player, name: row.name,
                  point: CGPoint(x: row.x, y: row.y), viewTime: row.viewTime, serverTime: row.serverTime)
    }
}
