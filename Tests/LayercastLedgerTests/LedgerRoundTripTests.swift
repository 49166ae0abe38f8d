import Foundation
import Testing
@testable import LayercastLedger

@Suite struct LedgerRoundTripTests {
    @Test(arguments: LedgerKind.allCases) func rainWithPrizesAndAwardsRoundTripsExactly(kind: LedgerKind) throws {
        try kind.withLocation { location in
            let ledger = try location.open()
            // The scene's settings are text the ledger keeps byte for byte, whatever it holds.
            let odd = #"{"duration":0.30000000000000004,"pool":9000000000,"name":"Zoë 🎉","height":1.7976931348623157e+308}"#
            let seed = UInt64.max - 12_345  // above Int64.max: stored as a negative bit pattern
            let salt = String(repeating: "0f", count: 32), commitment = String(repeating: "c3", count: 32)
            let new = NewRound(
                scene: "rain", room: "Zimmer ✨", seed: seed, salt: salt, commitment: commitment, settings: odd, mediaStart: 1234.567_890_123_456_7,
                prizes: [0: 100, 7: 1, 41: 0, 99: 898], createdAt: startTime)
            let id = try ledger.beginRound(new)

            // SQLite and memory keep a NUL inside text; PostgreSQL refuses it (PostgresLedgerTests).
            let name = kind == .postgres ? "Zoë 🎉 tail" : "Zoë 🎉\u{0}tail"
            let first = AwardRow(
                round: id, item: 7, player: "player-42", name: name, coins: 1,
                x: .pi, y: -1.0 / 3.0, viewTime: .leastNonzeroMagnitude, serverTime: 1e308,
                createdAt: Date(timeIntervalSince1970: 1_780_000_001.623))
            let second = AwardRow(
                round: id, item: 41, player: "anon-AAAAAAAAAAAAAAAAAAAAAA", name: "Guest-AAAA", coins: 0,
                x: 0.1, y: 0.2, viewTime: 5.000_000_000_000_001, serverTime: 5.25,
                createdAt: Date(timeIntervalSince1970: 1_780_000_002.124))
            let storedFirst = try ledger.recordAward(first)
            let storedSecond = try ledger.recordAward(second)
            let ended = Date(timeIntervalSince1970: 1_780_000_012.623)
            try ledger.endRound(id, status: .finished, at: ended)

            var expectedFirst = first
            expectedFirst.id = storedFirst.id
            var expectedSecond = second
            expectedSecond.id = storedSecond.id
            #expect(storedFirst == expectedFirst)
            #expect(storedSecond == expectedSecond)
            #expect(storedFirst.id > 0 && storedSecond.id > storedFirst.id)

            let record = try #require(try ledger.round(id: id))
            #expect(record == RoundRecord(
                id: id, scene: "rain", room: "Zimmer ✨", seed: seed, salt: salt, commitment: commitment, settings: odd, mediaStart: new.mediaStart, status: .finished,
                createdAt: startTime, endedAt: ended, prizes: new.prizes, awards: [expectedFirst, expectedSecond]))
            #expect(record.seed == 18_446_744_073_709_539_270)
            #expect(record.awards.map(\.name) == [name, "Guest-AAAA"])

            // Equality of Doubles is not bit equality; check the bits too.
            let written = [new.mediaStart]
                + [first, second].flatMap { [$0.x, $0.y, $0.viewTime, $0.serverTime] }
            let read = [record.mediaStart]
                + record.awards.flatMap { [$0.x, $0.y, $0.viewTime, $0.serverTime] }
            #expect(read.map(\.bitPattern) == written.map(\.bitPattern))
        }
    }

    @Test(arguments: LedgerKind.allCases) func datesAreStoredToTheNearestMillisecond(kind: LedgerKind) throws {
        try kind.withLocation { location in
            let ledger = try location.open()
            let id = try ledger.beginRound(newRound(at: Date(timeIntervalSince1970: 1_780_000_000.123_6)))
            let stored = try ledger.recordAward(
                award(round: id, item: 0, player: "p", coins: 100, at: Date(timeIntervalSince1970: 1_780_000_001.000_4)))
            let record = try #require(try ledger.round(id: id))
            #expect(record.createdAt == Date(timeIntervalSince1970: 1_780_000_000.124))
            #expect(stored.createdAt == Date(timeIntervalSince1970: 1_780_000_001))
            #expect(record.awards == [stored])
            #expect(record.status == .running)
            #expect(record.endedAt == nil)
        }
    }

    /// SQLite keeps an integral REAL as an integer, losing the sign of -0.0; float8 and memory keep it.
    @Test(arguments: LedgerKind.allCases) func negativeZeroReadsBackAsZeroFromSQLiteAndExactlyElsewhere(kind: LedgerKind) throws {
        try kind.withLocation { location in
            let ledger = try location.open()
            let id = try ledger.beginRound(newRound())
            var corner = award(round: id, item: 0, player: "p", coins: 1)
            corner.x = -0.0
            _ = try ledger.recordAward(corner)
            let x = try #require(try ledger.round(id: id)?.awards.first?.x)
            #expect(x == 0 && x.sign == (kind == .sqlite ? .plus : .minus))
        }
    }

    @Test(arguments: LedgerKind.allCases) func unknownRainReadsAsNil(kind: LedgerKind) throws {
        try kind.withLocation { location in
            let ledger = try location.open()
            #expect(try ledger.round(id: 1) == nil)
            let id = try ledger.beginRound(newRound())
            #expect(try ledger.round(id: id) != nil)
            #expect(try ledger.round(id: id + 1) == nil)
        }
    }
}
