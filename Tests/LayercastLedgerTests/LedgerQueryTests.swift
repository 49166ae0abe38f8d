import Foundation
import Testing
@testable import LayercastLedger

@Suite struct LedgerQueryTests {
    /// Two rains in "lobby", one in "other"; see the expectations for who won what.
    private func filled(_ location: LedgerLocation) throws -> (ledger: any Ledger, daveLatest: AwardRow, daveFirst: AwardRow) {
        let ledger = try location.open()
        let lobby1 = try ledger.beginRound(newRound(room: "lobby"))
        let lobby2 = try ledger.beginRound(newRound(room: "lobby"))
        let other = try ledger.beginRound(newRound(room: "other"))
        _ = try ledger.recordAward(award(round: lobby1, item: 0, player: "bob", coins: 100))
        _ = try ledger.recordAward(award(round: lobby1, item: 1, player: "carol", coins: 50))
        _ = try ledger.recordAward(award(round: lobby2, item: 1, player: "carol", coins: 50))
        _ = try ledger.recordAward(award(round: lobby1, item: 2, player: "alice", coins: 60))
        _ = try ledger.recordAward(award(round: lobby2, item: 2, player: "alice", coins: 40))
        let daveFirst = try ledger.recordAward(award(round: lobby2, item: 3, player: "dave", name: "Dave", coins: 30))
        _ = try ledger.recordAward(award(round: lobby2, item: 4, player: "erin", coins: 0))
        let daveLatest = try ledger.recordAward(award(round: other, item: 0, player: "dave", name: "Dave Two", coins: 500))
        return (ledger, daveLatest, daveFirst)
    }

    @Test(arguments: LedgerKind.allCases) func leaderboardRanksByCoinsThenPacketsThenPlayerPerRoom(kind: LedgerKind) throws {
        try kind.withLocation { location in
            let ledger = try filled(location).ledger
            // alice and carol tie on coins and packets (player id decides), bob has fewer packets;
            // dave's 500 coins were won in the other room, and he shows under his latest name.
            let lobby = [
                LeaderboardEntry(rank: 1, player: "alice", name: "Alice", coins: 100, items: 2),
                LeaderboardEntry(rank: 2, player: "carol", name: "Carol", coins: 100, items: 2),
                LeaderboardEntry(rank: 3, player: "bob", name: "Bob", coins: 100, items: 1),
                LeaderboardEntry(rank: 4, player: "dave", name: "Dave Two", coins: 30, items: 1),
                LeaderboardEntry(rank: 5, player: "erin", name: "Erin", coins: 0, items: 1),
            ]
            #expect(try ledger.leaderboard(room: "lobby", limit: 10) == lobby)
            #expect(try ledger.leaderboard(room: "lobby", limit: 2) == Array(lobby.prefix(2)))
            #expect(try ledger.leaderboard(room: "lobby", limit: 0) == [])
            #expect(try ledger.leaderboard(room: "lobby", limit: -1) == [])
            #expect(try ledger.leaderboard(room: "other", limit: 10)
                == [LeaderboardEntry(rank: 1, player: "dave", name: "Dave Two", coins: 500, items: 1)])
            #expect(try ledger.leaderboard(room: "empty", limit: 10) == [])
        }
    }

    @Test(arguments: LedgerKind.allCases) func playerTotalsSpanEveryRoom(kind: LedgerKind) throws {
        try kind.withLocation { location in
            let (ledger, daveLatest, daveFirst) = try filled(location)
            #expect(try ledger.totalCoins(player: "dave") == 530)
            #expect(try ledger.totalCoins(player: "alice") == 100)
            #expect(try ledger.totalCoins(player: "erin") == 0)
            #expect(try ledger.totalCoins(player: "nobody") == 0)

            #expect(try ledger.player(id: "dave", recentLimit: 5)
                == PlayerSummary(player: "dave", name: "Dave Two", coins: 530, items: 2, recent: [daveLatest, daveFirst]))
            #expect(try ledger.player(id: "dave", recentLimit: 1)?.recent == [daveLatest])
            #expect(try ledger.player(id: "dave", recentLimit: 0)
                == PlayerSummary(player: "dave", name: "Dave Two", coins: 530, items: 2, recent: []))
            #expect(try ledger.player(id: "erin", recentLimit: 5)?.coins == 0)
            #expect(try ledger.player(id: "erin", recentLimit: 5)?.items == 1)
            #expect(try ledger.player(id: "nobody", recentLimit: 5) == nil)
        }
    }

    /// What `layercast ledger check` reports; a memory ledger has no schema (version 0).
    @Test(arguments: LedgerKind.allCases) func summaryCountsRainsAwardsAndCoins(kind: LedgerKind) throws {
        try kind.withLocation { location in
            let ledger = try filled(location).ledger
            #expect(try ledger.summary() == LedgerSummary(schemaVersion: kind == .memory ? 0 : 5, rounds: 3, awards: 8, coins: 830))
        }
    }

    @Test(arguments: LedgerKind.allCases) func roomRainsAreListedNewestFirst(kind: LedgerKind) throws {
        try kind.withLocation { location in
            let ledger = try location.open()
            let ids = try (0..<3).map { _ in try ledger.beginRound(newRound(room: "lobby")) }
            let other = try ledger.beginRound(newRound(room: "other"))
            #expect(try ledger.rounds(room: "lobby", limit: 10) == ids.reversed())
            #expect(try ledger.rounds(room: "lobby", limit: 2) == [ids[2], ids[1]])
            #expect(try ledger.rounds(room: "other", limit: 10) == [other])
            #expect(try ledger.rounds(room: "nowhere", limit: 10) == [])
        }
    }

    /// `layercast replay --all / --room / --since / --until`: creation time from (inclusive) and
    /// before (exclusive), to the millisecond, and the room, each only when set.
    @Test(arguments: LedgerKind.allCases) func rainsAreSelectedByRoomAndCreationTime(kind: LedgerKind) throws {
        try kind.withLocation { location in
            let ledger = try location.open()
            let times = (0..<4).map { startTime.addingTimeInterval(Double($0) * 0.001) }
            let ids = try [("lobby", 0), ("hall", 1), ("lobby", 2), ("lobby", 3)].map {
                try ledger.beginRound(newRound(room: $0.0, at: times[$0.1]))
            }
            #expect(try ledger.roundIDs(RoundFilter()) == ids)
            #expect(try ledger.roundIDs(RoundFilter(room: "lobby")) == [ids[0], ids[2], ids[3]])
            #expect(try ledger.roundIDs(RoundFilter(createdFrom: times[1], createdBefore: times[3])) == [ids[1], ids[2]])
            #expect(try ledger.roundIDs(RoundFilter(room: "lobby", createdFrom: times[1])) == [ids[2], ids[3]])
            #expect(try ledger.roundIDs(RoundFilter(createdBefore: times[0])) == [])
            #expect(try ledger.roundIDs(RoundFilter(room: "nowhere")) == [])
        }
    }
}
