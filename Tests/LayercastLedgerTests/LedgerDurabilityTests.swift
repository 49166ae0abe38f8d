import Foundation
import Testing
@testable import LayercastLedger

@Suite struct LedgerDurabilityTests {
    @Test(arguments: LedgerKind.shared) func everythingCommittedIsThereAfterReopening(kind: LedgerKind) throws {
        try kind.withLocation { location in
            var written: [RoundRecord] = []
            do {
                let ledger = try location.open()
                let running = try ledger.beginRound(newRound(seed: .max))
                let finished = try ledger.beginRound(newRound(room: "other", prizes: [:]))
                _ = try ledger.recordAward(award(round: running, item: 0, player: "alice", coins: 100))
                _ = try ledger.recordAward(award(round: finished, item: 9, player: "bob", coins: 0))
                try ledger.endRound(finished, status: .finished, at: Date(timeIntervalSince1970: 1_780_000_020))
                written = try [running, finished].map { try #require(try ledger.round(id: $0)) }
            }  // the ledger is dropped here, closing its connection
            let reopened = try location.open()
            #expect(try written.map { try reopened.round(id: $0.id) } == written)
            #expect(written.map(\.awards.count) == [1, 1])
            #expect(try reopened.leaderboard(room: "lobby", limit: 5).map(\.player) == ["alice"])
        }
    }

    /// A node taking a room over finds that room's running rains only.
    @Test(arguments: LedgerKind.allCases) func runningRainsOfOneRoom(kind: LedgerKind) throws {
        try kind.withLocation { location in
            let end = Date(timeIntervalSince1970: 1_780_000_020)
            let ledger = try location.open()
            let lobby = try (0..<3).map { _ in try ledger.beginRound(newRound(room: "lobby")) }
            let hall = try ledger.beginRound(newRound(room: "hall"))
            try ledger.endRound(lobby[1], status: .finished, at: end)
            #expect(try ledger.runningRounds(room: "lobby") == [lobby[0], lobby[2]])
            #expect(try ledger.runningRounds(room: "hall") == [hall])
            #expect(try ledger.runningRounds(room: "nowhere") == [])
        }
    }

    @Test(arguments: LedgerKind.allCases) func recoverInterruptedMarksOnlyRunningRains(kind: LedgerKind) throws {
        try kind.withLocation { location in
            let end = Date(timeIntervalSince1970: 1_780_000_020)
            let restart = Date(timeIntervalSince1970: 1_780_000_999.5)
            let ledger = try location.open()
            let ids = try (0..<4).map { _ in try ledger.beginRound(newRound()) }
            try ledger.endRound(ids[1], status: .finished, at: end)
            try ledger.endRound(ids[3], status: .interrupted, at: end)
            #expect(try ledger.recoverInterrupted(now: restart) == [ids[0], ids[2]])
            let states = try ids.map { try #require(try ledger.round(id: $0)) }.map { [$0.status.rawValue, "\($0.endedAt!.timeIntervalSince1970)"] }
            #expect(states == [
                ["interrupted", "\(restart.timeIntervalSince1970)"], ["finished", "\(end.timeIntervalSince1970)"],
                ["interrupted", "\(restart.timeIntervalSince1970)"], ["interrupted", "\(end.timeIntervalSince1970)"],
            ])
            #expect(try ledger.recoverInterrupted(now: restart) == [])
        }
    }

    /// A second connection sees each award as soon as `recordAward` returns, while the first
    /// stays open: the commit reached the WAL (or the PostgreSQL server) before the call returned.
    @Test(arguments: LedgerKind.shared) func aSecondConnectionSeesEachAwardWhenRecordAwardReturns(kind: LedgerKind) throws {
        try kind.withLocation { location in
            let writer = try location.open()
            let reader = try location.open()
            if kind == .sqlite { #expect(FileManager.default.fileExists(atPath: writer.address + "-wal")) }
            let id = try writer.beginRound(newRound())
            #expect(try reader.round(id: id)?.status == .running)
            var recorded: [AwardRow] = []
            for packet in 0..<5 {
                recorded.append(try writer.recordAward(award(round: id, item: packet, player: "alice", coins: packet * 10)))
                #expect(try reader.round(id: id)?.awards == recorded)
                #expect(try reader.totalCoins(player: "alice") == recorded.map(\.coins).reduce(0, +))
            }
            // The lock is free between calls: the reader can write, and the writer sees it.
            let bobs = try reader.recordAward(award(round: id, item: 5, player: "bob", coins: 7))
            #expect(try writer.round(id: id)?.awards.last == bobs)
            #expect(throws: LedgerError.self) { try reader.recordAward(award(round: id, item: 0, player: "bob", coins: 1)) }
        }
    }
}
