import Foundation

/// The ledger in this process's memory (`--ledger memory:`), for tests and demos: **every round
/// and award is lost when the process stops**. It keeps `Ledger`'s contract otherwise: an item
/// is awarded at most once per round (`duplicate`, as SQL's `UNIQUE (round, item)`), a call
/// that throws changes nothing, ids count from 1 in commit order, dates are kept to the
/// millisecond, text is compared byte by byte, doubles bit for bit (-0.0 included) and NaN and
/// negative coins or items are refused with the SQL ledgers' codes.
///
/// Nothing outside the object can reach it: each `LedgerLocation.memory.open()` is a new, empty
/// ledger. So a lock is never refused (no other process can hold one), and there is nothing on
/// disk to check, back up or replay. Like every ledger it is used from one thread, without locks.
public final class MemoryLedger: Ledger {
    /// `rounds[id - 1]`, each with its awards in id order.
    private var rounds: [RoundRecord] = []
    /// Each player's awards, in id order, by the bytes of their id.
    private var awardsOfPlayer: [[UInt8]: [AwardRow]] = [:]
    private var awardCount: Int64 = 0
    /// Each claimed round's epoch (`claimRound`); a round not here is at 0.
    private var epochs: [Int64: Int64] = [:]
    /// `sharedSecret`'s values by name.
    private var secrets: [String: String] = [:]

    public init() {}

    public func sharedSecret(_ name: String, candidate: String) throws(LedgerError) -> String {
        if let value = secrets[name] { return value }
        secrets[name] = candidate
        return candidate
    }

    public var address: String { LedgerLocation.memory.description }

    /// Locks nothing: no other process can reach this ledger, so no role is ever excluded.
    public func lock(_ role: LedgerRole) throws(LedgerError) {}

    public func recoverInterrupted(now: Date) throws(LedgerError) -> [Int64] {
        let running = rounds.filter { $0.status == .running }.map(\.id)
        for id in running { end(id, status: .interrupted, at: now) }
        return running
    }

    public func beginRound(_ round: NewRound) throws(LedgerError) -> Int64 {
        try LedgerError.during("begin a round of \(round.scene) in room \(round.room)") { () throws(LedgerError) in
            try round.refuseNaN()
            for (item, coins) in round.prizes.sorted(by: { $0.key < $1.key }) {
                try Self.refuseNegative([("prize item", item), ("prize coins", coins)])
            }
            let id = Int64(rounds.count + 1)
            rounds.append(RoundRecord(
                id: id, scene: round.scene, room: round.room, seed: round.seed, salt: round.salt, commitment: round.commitment,
                settings: round.settings, mediaStart: round.mediaStart, status: .running, createdAt: Self.stored(round.createdAt),
                endedAt: nil, prizes: round.prizes, awards: []))
            return id
        }
    }

    public func claimRound(_ id: Int64) throws(LedgerError) -> Int64 {
        try LedgerError.during("claim round \(id)") { () throws(LedgerError) in
            try requireRunning(id, holding: epochs[id, default: 0])
            epochs[id, default: 0] += 1
            return epochs[id, default: 0]
        }
    }

    public func endRound(_ id: Int64, status: RoundStatus, at: Date, epoch: Int64) throws(LedgerError) {
        try LedgerError.during("end round \(id)") { () throws(LedgerError) in
            guard status != .running else { throw LedgerError.endingAsRunning }
            try requireRunning(id, holding: epoch)
            end(id, status: status, at: at)
        }
    }

    /// In the SQL ledgers' order: NaN, then the round, then negative values, then the item.
    public func recordAward(_ award: AwardRow, epoch: Int64) throws(LedgerError) -> AwardRow {
        try LedgerError.during("record award of item \(award.item) in round \(award.round)") { () throws(LedgerError) in
            try award.refuseNaN()
            try requireRunning(award.round, holding: epoch)
            try Self.refuseNegative([("item", award.item), ("coins", award.coins)])
            let index = Int(award.round - 1)
            guard !rounds[index].awards.contains(where: { $0.item == award.item }) else { throw LedgerError.alreadyAwarded }
            awardCount += 1
            var stored = award
            stored.id = awardCount
            stored.createdAt = Self.stored(award.createdAt)
            rounds[index].awards.append(stored)
            awardsOfPlayer[Array(award.player.utf8), default: []].append(stored)
            return stored
        }
    }

    public func voidAward(_ id: Int64, round: Int64, epoch: Int64) throws(LedgerError) {
        try LedgerError.during("void award \(id) in round \(round)") { () throws(LedgerError) in
            try requireRunning(round, holding: epoch)
            let index = Int(round - 1)
            guard let award = rounds[index].awards.first(where: { $0.id == id }) else { return }
            rounds[index].awards.removeAll { $0.id == id }
            awardsOfPlayer[Array(award.player.utf8)]?.removeAll { $0.id == id }
        }
    }

    /// Nothing to check: there is no file or schema, and every call keeps the contract's rules.
    public func verify() throws(LedgerError) {}

    /// Schema version 0: a memory ledger has no schema.
    public func summary() throws(LedgerError) -> LedgerSummary {
        let awards = rounds.flatMap(\.awards)
        return LedgerSummary(schemaVersion: 0, rounds: rounds.count, awards: awards.count, coins: awards.reduce(0) { $0 + $1.coins })
    }

    /// The round `id`, if there is one.
    func stored(round id: Int64) -> RoundRecord? {
        id >= 1 && id <= Int64(rounds.count) ? rounds[Int(id) - 1] : nil
    }

    /// Every round, in id order.
    var allRounds: [RoundRecord] { rounds }

    /// Player `id`'s awards in id order (the bytes of the id decide who is who).
    func awards(of player: String) -> [AwardRow] { awardsOfPlayer[Array(player.utf8)] ?? [] }

    /// Throws `notFound` unless round `id` exists and is running, `fenced` unless it is at `epoch`.
    private func requireRunning(_ id: Int64, holding epoch: Int64) throws(LedgerError) {
        let status = stored(round: id)?.status
        guard status == .running else { throw LedgerError.notRunning(id, status: status?.rawValue) }
        let current = epochs[id, default: 0]
        guard current == epoch else { throw LedgerError.fenced(id, held: epoch, current: current) }
    }

    /// Ends running round `id` with `status` at `date`.
    private func end(_ id: Int64, status: RoundStatus, at date: Date) {
        rounds[Int(id) - 1].status = status
        rounds[Int(id) - 1].endedAt = Self.stored(date)
    }

    /// `date` as the ledger keeps it: to the nearest millisecond.
    private static func stored(_ date: Date) -> Date { Date(unixMilliseconds: date.unixMilliseconds) }

    /// Throws `invalid` for the first negative value among `fields`, as the SQL ledgers' CHECK
    /// constraints do.
    private static func refuseNegative(_ fields: [(name: String, value: Int)]) throws(LedgerError) {
        if let field = fields.first(where: { $0.value < 0 }) {
            throw LedgerError(.invalid, "\(field.name) is \(field.value), below 0, which cannot be stored")
        }
    }
}
