import Foundation
import Testing
@testable import LayercastLedger

@Suite struct LedgerAwardTests {
    @Test(arguments: LedgerKind.allCases) func secondAwardOfAPacketIsADuplicateAndChangesNothing(kind: LedgerKind) throws {
        try kind.withLocation { location in
            let ledger = try location.open()
            let id = try ledger.beginRound(newRound())
            let first = try ledger.recordAward(award(round: id, item: 3, player: "alice", coins: 250))

            let error = try #require(throws: LedgerError.self) {
                try ledger.recordAward(award(round: id, item: 3, player: "bob", coins: 999))
            }
            #expect(error.code == .duplicate)
            #expect(error.message.contains("item 3 in round \(id)"))

            let reopened = LedgerKind.shared.contains(kind) ? [try location.open()] : []
            for reader in [ledger] + reopened {
                #expect(try reader.round(id: id)?.awards == [first])
                #expect(try reader.totalCoins(player: "alice") == 250)
                #expect(try reader.totalCoins(player: "bob") == 0)
                #expect(try reader.player(id: "bob", recentLimit: 5) == nil)
            }
            // The same player claiming the same packet again is no different.
            #expect(throws: LedgerError(.duplicate, "record award of item 3 in round \(id): the item is already awarded")) {
                try ledger.recordAward(award(round: id, item: 3, player: "alice", coins: 250))
            }
            #expect(try ledger.round(id: id)?.awards.count == 1)
        }
    }

    @Test(arguments: LedgerKind.allCases) func awardForAnUnknownOrEndedRainIsRefused(kind: LedgerKind) throws {
        try kind.withLocation { location in
            let ledger = try location.open()
            let finished = try ledger.beginRound(newRound())
            let interrupted = try ledger.beginRound(newRound())
            try ledger.endRound(finished, status: .finished, at: startTime)
            try ledger.endRound(interrupted, status: .interrupted, at: startTime)

            let unknown = try #require(throws: LedgerError.self) {
                try ledger.recordAward(award(round: 99, item: 0, player: "alice", coins: 100))
            }
            #expect(unknown.code == .notFound)
            #expect(unknown.message.hasSuffix("there is no round 99"))
            for id in [finished, interrupted] {
                let ended = try #require(throws: LedgerError.self) {
                    try ledger.recordAward(award(round: id, item: 0, player: "alice", coins: 100))
                }
                #expect(ended.code == .notFound)
                #expect(ended.message.contains("not running"))
                #expect(try ledger.round(id: id)?.awards == [])
            }
            #expect(try ledger.totalCoins(player: "alice") == 0)
        }
    }

    @Test(arguments: LedgerKind.allCases) func onlyARunningRainEnds(kind: LedgerKind) throws {
        try kind.withLocation { location in
            let ledger = try location.open()
            let id = try ledger.beginRound(newRound())
            #expect(throws: LedgerError(.invalid, "end round \(id): a round ends finished or interrupted, not running")) {
                try ledger.endRound(id, status: .running, at: startTime)
            }
            #expect(throws: LedgerError(.notFound, "end round 99: there is no round 99")) {
                try ledger.endRound(99, status: .finished, at: startTime)
            }
            let end = Date(timeIntervalSince1970: 1_780_000_010)
            try ledger.endRound(id, status: .finished, at: end)
            #expect(throws: LedgerError(.notFound, "end round \(id): round \(id) is finished, not running")) {
                try ledger.endRound(id, status: .interrupted, at: end.addingTimeInterval(5))
            }
            let record = try #require(try ledger.round(id: id))
            #expect(record.status == .finished)
            #expect(record.endedAt == end)
        }
    }

    @Test(arguments: LedgerKind.allCases) func valuesTheLedgerCannotKeepAreRefusedWithoutAChange(kind: LedgerKind) throws {
        try kind.withLocation { location in
            let ledger = try location.open()
            let id = try ledger.beginRound(newRound())
            var nan = award(round: id, item: 0, player: "alice", coins: 100)
            nan.y = .nan
            #expect(throws: LedgerError(.invalid, "record award of item 0 in round \(id): y is NaN, which cannot be stored")) {
                try ledger.recordAward(nan)
            }
            let negative = try #require(throws: LedgerError.self) {
                try ledger.recordAward(award(round: id, item: 1, player: "alice", coins: -5))
            }
            #expect(negative.code == .invalid)
            let refusal = switch kind {
            case .sqlite: "CHECK constraint failed"
            case .postgres: "violates check constraint"
            case .memory: "coins is -5, below 0"
            }
            #expect(negative.message.contains(refusal), "\(negative)")
            #expect(try ledger.round(id: id)?.awards == [])

            // A bad prize fails the whole rain: no row without its plan.
            let badPlan = try #require(throws: LedgerError.self) {
                try ledger.beginRound(newRound(room: "other", prizes: [0: 10, 1: -1]))
            }
            #expect(badPlan.code == .invalid)
            #expect(try ledger.rounds(room: "other", limit: 10) == [])
            #expect(try ledger.round(id: id + 1) == nil)
        }
    }
}
