import Foundation
import LayercastAudit
import LayercastLedger
import LayercastScenes

/// The ledger as the rooms' awarding service and round records: every award and every round is
/// committed durably before anyone hears of it. It holds the epoch of each round this node began
/// or claimed (`Ledger.claimRound`), and commits and ends under it: once another node has taken a
/// round's room over and claimed it, this node's awards and end of that round are refused (`fenced`).
public final class LedgerServices: Awarding, RoundRecords {
    let ledger: any Ledger
    /// The epoch this node holds of each round it began (0) or claimed on a takeover.
    private var epochs: [Int64: Int64] = [:]

    public init(_ ledger: any Ledger) { self.ledger = ledger }

    /// Records the award (at most once per item: the ledger's constraint) and reads the
    /// player's new total.
    public func commit(_ award: Award) throws -> Int {
        let claim = award.claim
        _ = try ledger.recordAward(AwardRow(id: 0, round: claim.round, item: claim.item, player: award.player, name: award.name,
                                            coins: claim.coins, x: claim.point.x, y: claim.point.y, viewTime: claim.time,
                                            serverTime: award.serverTime, createdAt: Date()),
                                   epoch: epochs[claim.round, default: 0])
        return try ledger.totalCoins(player: award.player)
    }

    public func begin(_ round: RoundStart) throws -> Int64 {
        let id = try ledger.beginRound(NewRound(round, at: Date()))
        epochs[id] = 0
        return id
    }

    public func end(_ id: Int64, interrupted: Bool) throws {
        try ledger.endRound(id, status: interrupted ? .interrupted : .finished, at: Date(), epoch: epochs[id, default: 0])
        epochs[id] = nil
    }

    /// Claims each (the fence: the node that ran them can no longer commit to them) before reading
    /// its awards, so the awards read are every award the round will ever have from another node.
    public func running(in room: String) throws -> [RecordedRound] {
        try ledger.runningRounds(room: room).compactMap { id in
            do {
                epochs[id] = try ledger.claimRound(id)
            } catch let error as LedgerError where error.code == .notFound {
                return nil  // it ended since it was listed
            }
            guard let round = try ledger.round(id: id), round.status == .running else { return nil }
            return RecordedRound(round)
        }
    }
}
