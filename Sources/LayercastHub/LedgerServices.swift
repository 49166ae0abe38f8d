import Foundation
import LayercastAudit
import LayercastLedger
import LayercastScenes

/// The ledger as the rooms' awarding service and rain records: every award and every rain is
/// committed durably before anyone hears of it. It holds the epoch of each rain this node began or
/// claimed (`Ledger.claimRain`), and commits and ends under it: once another node has taken a
/// rain's room over and claimed it, this node's awards and end of that rain are refused (`fenced`).
public final class LedgerServices: Awarding, RainRecords {
    let ledger: any Ledger
    /// The epoch this node holds of each rain it began (0) or claimed on a takeover.
    private var epochs: [Int64: Int64] = [:]

    public init(_ ledger: any Ledger) { self.ledger = ledger }

    /// Records the award (at most once per packet: the ledger's constraint) and reads the
    /// player's new total.
    public func commit(_ award: Award) throws -> Int {
        let claim = award.claim
        _ = try ledger.recordAward(AwardRow(id: 0, rain: claim.round, packet: claim.item, player: award.player, name: award.name,
                                            coins: claim.coins, x: claim.point.x, y: claim.point.y, viewTime: claim.time,
                                            serverTime: award.serverTime, createdAt: Date()),
                                   epoch: epochs[claim.round, default: 0])
        return try ledger.totalCoins(player: award.player)
    }

    public func begin(_ rain: RainStart) throws -> Int64 {
        let id = try ledger.beginRain(NewRain(room: rain.room, seed: rain.settings.seed, salt: RainCommitment.hex(rain.settings.salt),
                                     commitment: rain.commitment.digest, settings: RainSettingsRow(rain), mediaStart: rain.mediaStart,
                                     prizes: rain.plan.prizes, createdAt: Date()))
        epochs[id] = 0
        return id
    }

    public func end(_ id: Int64, interrupted: Bool) throws {
        try ledger.endRain(id, status: interrupted ? .interrupted : .finished, at: Date(), epoch: epochs[id, default: 0])
        epochs[id] = nil
    }

    /// Claims each (the fence: the node that ran them can no longer commit to them) before reading
    /// its awards, so the awards read are every award the rain will ever have from another node.
    public func running(in room: String) throws -> [RecordedRain] {
        try ledger.runningRains(room: room).compactMap { id in
            do {
                epochs[id] = try ledger.claimRain(id)
            } catch let error as LedgerError where error.code == .notFound {
                return nil  // it ended since it was listed
            }
            guard let rain = try ledger.rain(id: id), rain.status == .running else { return nil }
            let awards = rain.awards.map { award in
                (tap: RainReplay.Tap(award), outcome: RainReplay.Outcome(packet: award.packet, coins: award.coins, player: award.player))
            }
            return RecordedRain(id: rain.id, settings: RainSettings(rain), size: rain.settings.size, mediaStart: rain.mediaStart,
                                awards: awards)
        }
    }
}
