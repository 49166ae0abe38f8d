import Foundation

// What `MemoryLedger` answers: the same rows, in the same order, as `SQLLedger`'s queries. Rooms
// and players are told apart by their bytes, as SQL compares text (Swift's `==` would make
// canonically equivalent strings one).
extension MemoryLedger {
    public func runningRounds(room: String) throws(LedgerError) -> [Int64] {
        allRounds.filter { $0.status == .running && Self.same($0.room, room) }.map(\.id)
    }

    public func round(id: Int64) throws(LedgerError) -> RoundRecord? { stored(round: id) }

    public func leaderboard(room: String, limit: Int) throws(LedgerError) -> [LeaderboardEntry] {
        var totals: [[UInt8]: (player: String, coins: Int, items: Int)] = [:]
        for award in allRounds.filter({ Self.same($0.room, room) }).flatMap(\.awards) {
            var total = totals[Array(award.player.utf8)] ?? (award.player, 0, 0)
            total.coins += award.coins
            total.items += 1
            totals[Array(award.player.utf8)] = total
        }
        let ranked = totals.values.sorted {
            ($0.coins, $0.items) != ($1.coins, $1.items)
                ? ($0.coins, $0.items) > ($1.coins, $1.items)
                : $0.player.utf8.lexicographicallyPrecedes($1.player.utf8)
        }
        return ranked.prefix(max(limit, 0)).enumerated().map { offset, total in
            LeaderboardEntry(rank: offset + 1, player: total.player, name: awards(of: total.player).last?.name ?? "",
                             coins: total.coins, items: total.items)
        }
    }

    public func player(id: String, recentLimit: Int) throws(LedgerError) -> PlayerSummary? {
        let won = awards(of: id)
        guard let latest = won.last else { return nil }
        return PlayerSummary(player: id, name: latest.name, coins: won.reduce(0) { $0 + $1.coins }, items: won.count,
                             recent: Array(won.reversed().prefix(max(recentLimit, 0))))
    }

    public func totalCoins(player: String) throws(LedgerError) -> Int {
        awards(of: player).reduce(0) { $0 + $1.coins }
    }

    public func rounds(room: String, limit: Int) throws(LedgerError) -> [Int64] {
        Array(allRounds.reversed().lazy.filter { Self.same($0.room, room) }.map(\.id).prefix(max(limit, 0)))
    }

    public func roundIDs(_ filter: RoundFilter) throws(LedgerError) -> [Int64] {
        let (from, before) = filter.millisecondBounds
        return allRounds.filter { round in
            let created = round.createdAt.unixMilliseconds
            return created >= from && created < before && filter.room.map { Self.same(round.room, $0) } ?? true
        }.map(\.id)
    }

    /// Whether two texts are the same bytes.
    private static func same(_ a: String, _ b: String) -> Bool { a.utf8.elementsEqual(b.utf8) }
}
