import Foundation

/// The ledger in this process's memory (`--ledger memory:`), for tests and demos: **every rain
/// and award is lost when the process stops**. It keeps `Ledger`'s contract otherwise: a packet
/// is awarded at most once per rain (`duplicate`, as SQL's `UNIQUE (rain, packet)`), a call
/// that throws changes nothing, ids count from 1 in commit order, dates are kept to the
/// millisecond, text is compared byte by byte, doubles bit for bit (-0.0 included) and NaN and
/// negative coins or packets are refused with the SQL ledgers' codes.
///
/// Nothing outside the object can reach it: each `LedgerLocation.memory.open()` is a new, empty
/// ledger. So a lock is never refused (no other process can hold one), and there is nothing on
/// disk to check, back up or replay. Like every ledger it is used from one thread, without locks.
public final class MemoryLedger: Ledger {
    /// `rains[id - 1]`, each with its awards in id order.
    private var rains: [RainRecord] = []
    /// Each player's awards, in id order, by the bytes of their id.
    private var awardsOfPlayer: [[UInt8]: [AwardRow]] = [:]
    private var awardCount: Int64 = 0
    /// Each claimed rain's epoch (`claimRain`); a rain not here is at 0.
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
        let running = rains.filter { $0.status == .running }.map(\.id)
        for id in running { end(id, status: .interrupted, at: now) }
        return running
    }

    public func beginRain(_ rain: NewRain) throws(LedgerError) -> Int64 {
        try LedgerError.during("begin rain in room \(rain.room)") { () throws(LedgerError) in
            try rain.refuseNaN()
            for (packet, coins) in rain.prizes.sorted(by: { $0.key < $1.key }) {
                try Self.refuseNegative([("prize packet", packet), ("prize coins", coins)])
            }
            let id = Int64(rains.count + 1)
            rains.append(RainRecord(
                id: id, room: rain.room, seed: rain.seed, salt: rain.salt, commitment: rain.commitment, settings: rain.settings,
                mediaStart: rain.mediaStart, status: .running, createdAt: Self.stored(rain.createdAt), endedAt: nil,
                prizes: rain.prizes, awards: []))
            return id
        }
    }

    public func claimRain(_ id: Int64) throws(LedgerError) -> Int64 {
        try LedgerError.during("claim rain \(id)") { () throws(LedgerError) in
            try requireRunning(id, holding: epochs[id, default: 0])
            epochs[id, default: 0] += 1
            return epochs[id, default: 0]
        }
    }

    public func endRain(_ id: Int64, status: RainStatus, at: Date, epoch: Int64) throws(LedgerError) {
        try LedgerError.during("end rain \(id)") { () throws(LedgerError) in
            guard status != .running else { throw LedgerError.endingAsRunning }
            try requireRunning(id, holding: epoch)
            end(id, status: status, at: at)
        }
    }

    /// In the SQL ledgers' order: NaN, then the rain, then negative values, then the packet.
    public func recordAward(_ award: AwardRow, epoch: Int64) throws(LedgerError) -> AwardRow {
        try LedgerError.during("record award of packet \(award.packet) in rain \(award.rain)") { () throws(LedgerError) in
            try award.refuseNaN()
            try requireRunning(award.rain, holding: epoch)
            try Self.refuseNegative([("packet", award.packet), ("coins", award.coins)])
            let index = Int(award.rain - 1)
            guard !rains[index].awards.contains(where: { $0.packet == award.packet }) else { throw LedgerError.alreadyAwarded }
            awardCount += 1
            var stored = award
            stored.id = awardCount
            stored.createdAt = Self.stored(award.createdAt)
            rains[index].awards.append(stored)
            awardsOfPlayer[Array(award.player.utf8), default: []].append(stored)
            return stored
        }
    }

    /// Nothing to check: there is no file or schema, and every call keeps the contract's rules.
    public func verify() throws(LedgerError) {}

    /// Schema version 0: a memory ledger has no schema.
    public func summary() throws(LedgerError) -> LedgerSummary {
        let awards = rains.flatMap(\.awards)
        return LedgerSummary(schemaVersion: 0, rains: rains.count, awards: awards.count, coins: awards.reduce(0) { $0 + $1.coins })
    }

    /// The rain `id`, if there is one.
    func stored(rain id: Int64) -> RainRecord? {
        id >= 1 && id <= Int64(rains.count) ? rains[Int(id) - 1] : nil
    }

    /// Every rain, in id order.
    var allRains: [RainRecord] { rains }

    /// Player `id`'s awards in id order (the bytes of the id decide who is who).
    func awards(of player: String) -> [AwardRow] { awardsOfPlayer[Array(player.utf8)] ?? [] }

    /// Throws `notFound` unless rain `id` exists and is running, `fenced` unless it is at `epoch`.
    private func requireRunning(_ id: Int64, holding epoch: Int64) throws(LedgerError) {
        let status = stored(rain: id)?.status
        guard status == .running else { throw LedgerError.notRunning(id, status: status?.rawValue) }
        let current = epochs[id, default: 0]
        guard current == epoch else { throw LedgerError.fenced(id, held: epoch, current: current) }
    }

    /// Ends running rain `id` with `status` at `date`.
    private func end(_ id: Int64, status: RainStatus, at date: Date) {
        rains[Int(id) - 1].status = status
        rains[Int(id) - 1].endedAt = Self.stored(date)
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
