import Foundation
import Testing
@testable import LayercastLedger

/// The fence between two origins of a cluster (`Ledger.claimRain`, docs/cluster.md "Two origins
/// for a moment"): a claim raises the rain's epoch, and the holder of an older one can neither
/// record an award nor end the rain; what it recorded before the claim stands and is read.
@Suite struct LedgerFenceTests {
    @Test(arguments: LedgerKind.allCases) func aClaimFencesOffTheEarlierHolder(kind: LedgerKind) throws {
        try kind.withLocation { location in
            let old = try location.open()
            let new = LedgerKind.shared.contains(kind) ? try location.open() : old  // another node, when it can be
            let id = try old.beginRound(newRound())
            let before = try old.recordAward(award(round: id, item: 0, player: "alice", coins: 100), epoch: 0)

            #expect(try new.claimRound(id) == 1)
            #expect(try new.round(id: id)?.awards == [before])  // read after the claim: all the old holder committed
            let refused = try #require(throws: LedgerError.self) {
                try old.recordAward(award(round: id, item: 3, player: "bob", coins: 250), epoch: 0)
            }
            #expect(refused == LedgerError(.fenced, "record award of item 3 in round \(id): round \(id) was claimed by another holder (epoch 1; this one holds 0)"))
            let end = try #require(throws: LedgerError.self) { try old.endRound(id, status: .interrupted, at: startTime, epoch: 0) }
            #expect(end.code == .fenced)

            let after = try new.recordAward(award(round: id, item: 3, player: "bob", coins: 250), epoch: 1)
            #expect(try new.round(id: id)?.awards == [before, after])
            #expect(try new.claimRound(id) == 2)  // a third node: the second is fenced off in turn
            #expect(throws: LedgerError.self) { try new.endRound(id, status: .finished, at: startTime, epoch: 1) }
            try new.endRound(id, status: .finished, at: startTime, epoch: 2)
            #expect(try new.round(id: id)?.status == .finished)
            #expect(try old.totalCoins(player: "bob") == 250)
        }
    }

    @Test(arguments: LedgerKind.allCases) func onlyARunningRainIsClaimed(kind: LedgerKind) throws {
        try kind.withLocation { location in
            let ledger = try location.open()
            let id = try ledger.beginRound(newRound())
            try ledger.endRound(id, status: .finished, at: startTime)
            let ended = try #require(throws: LedgerError.self) { try ledger.claimRound(id) }
            #expect(ended == LedgerError(.notFound, "claim round \(id): round \(id) is finished, not running"))
            let unknown = try #require(throws: LedgerError.self) { try ledger.claimRound(99) }
            #expect(unknown == LedgerError(.notFound, "claim round 99: there is no round 99"))
        }
    }
}
