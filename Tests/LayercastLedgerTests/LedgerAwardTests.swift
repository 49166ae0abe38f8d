import Foundation
import Testing
@testable import LayercastLedger

@Suite struct LedgerAwardTests {
    @Test(arguments: LedgerKind.allCases) func secondAwardOfAPacketIsADuplicateAndChangesNothing(kind: LedgerKind) throws {
        try kind.withLocation { location in
            let ledger = try location.open()
            let id = try ledger.beginRain(newRain())
            let first = try ledger.recordAward(award(rain: id, packet: 3, player: "alice", coins: 250))

            let error = try #require(throws: LedgerError.self) {
                try ledger.recordAward(award(rain: id, packet: 3, player: "bob", coins: 999))
            }
            #expect(error.code == .duplicate)
            #expect(error.message.contains("packet 3 in rain \(id)"))

            let reopened = LedgerKind.shared.contains(kind) ? [try location.open()] : []
            for reader in [ledger] + reopened {
                #expect(try reader.rain(id: id)?.awards == [first])
                #expect(try reader.totalCoins(player: "alice") == 250)
                #expect(try reader.totalCoins(player: "bob") == 0)
                #expect(try reader.player(id: "bob", recentLimit: 5) == nil)
            }
            // The same player claiming the same packet again is no different.
            #expect(throws: LedgerError(.duplicate, "record award of packet 3 in rain \(id): the packet is already awarded")) {
                try ledger.recordAward(award(rain: id, packet: 3, player: "alice", coins: 250))
            }
            #expect(try ledger.rain(id: id)?.awards.count == 1)
        }
    }

    @Test(arguments: LedgerKind.allCases) func awardForAnUnknownOrEndedRainIsRefused(kind: LedgerKind) throws {
        try kind.withLocation { location in
            let ledger = try location.open()
            let finished = try ledger.beginRain(newRain())
            let interrupted = try ledger.beginRain(newRain())
            try ledger.endRain(finished, status: .finished, at: startTime)
            try ledger.endRain(interrupted, status: .interrupted, at: startTime)

            let unknown = try #require(throws: LedgerError.self) {
                try ledger.recordAward(award(rain: 99, packet: 0, player: "alice", coins: 100))
            }
            #expect(unknown.code == .notFound)
            #expect(unknown.message.hasSuffix("there is no rain 99"))
            for id in [finished, interrupted] {
                let ended = try #require(throws: LedgerError.self) {
                    try ledger.recordAward(award(rain: id, packet: 0, player: "alice", coins: 100))
                }
                #expect(ended.code == .notFound)
                #expect(ended.message.contains("not running"))
                #expect(try ledger.rain(id: id)?.awards == [])
            }
            #expect(try ledger.totalCoins(player: "alice") == 0)
        }
    }

    @Test(arguments: LedgerKind.allCases) func onlyARunningRainEnds(kind: LedgerKind) throws {
        try kind.withLocation { location in
            let ledger = try location.open()
            let id = try ledger.beginRain(newRain())
            #expect(throws: LedgerError(.invalid, "end rain \(id): a rain ends finished or interrupted, not running")) {
                try ledger.endRain(id, status: .running, at: startTime)
            }
            #expect(throws: LedgerError(.notFound, "end rain 99: there is no rain 99")) {
                try ledger.endRain(99, status: .finished, at: startTime)
            }
            let end = Date(timeIntervalSince1970: 1_780_000_010)
            try ledger.endRain(id, status: .finished, at: end)
            #expect(throws: LedgerError(.notFound, "end rain \(id): rain \(id) is finished, not running")) {
                try ledger.endRain(id, status: .interrupted, at: end.addingTimeInterval(5))
            }
            let record = try #require(try ledger.rain(id: id))
            #expect(record.status == .finished)
            #expect(record.endedAt == end)
        }
    }

    @Test(arguments: LedgerKind.allCases) func valuesTheLedgerCannotKeepAreRefusedWithoutAChange(kind: LedgerKind) throws {
        try kind.withLocation { location in
            let ledger = try location.open()
            let id = try ledger.beginRain(newRain())
            var nan = award(rain: id, packet: 0, player: "alice", coins: 100)
            nan.y = .nan
            #expect(throws: LedgerError(.invalid, "record award of packet 0 in rain \(id): y is NaN, which cannot be stored")) {
                try ledger.recordAward(nan)
            }
            let negative = try #require(throws: LedgerError.self) {
                try ledger.recordAward(award(rain: id, packet: 1, player: "alice", coins: -5))
            }
            #expect(negative.code == .invalid)
            let refusal = switch kind {
            case .sqlite: "CHECK constraint failed"
            case .postgres: "violates check constraint"
            case .memory: "coins is -5, below 0"
            }
            #expect(negative.message.contains(refusal), "\(negative)")
            #expect(try ledger.rain(id: id)?.awards == [])

            // A bad prize fails the whole rain: no row without its plan.
            let badPlan = try #require(throws: LedgerError.self) {
                try ledger.beginRain(newRain(room: "other", prizes: [0: 10, 1: -1]))
            }
            #expect(badPlan.code == .invalid)
            #expect(try ledger.rains(room: "other", limit: 10) == [])
            #expect(try ledger.rain(id: id + 1) == nil)
        }
    }
}
