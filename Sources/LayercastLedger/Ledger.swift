import Foundation

/// The award ledger: the rounds of every scene that pays out (a rain is one), their prize plans
/// and awards, committed before anyone hears of them. A round keeps the id of its scene and the
/// scene's own settings as JSON text the ledger does not read; its items are what players claim.
/// `SQLiteLedger` keeps it in one file for one process; `PostgresLedger` in a database that
/// every node of a cluster shares; `MemoryLedger` in its process's memory, for tests and demos.
/// `LedgerLocation.open()` opens any of them.
///
/// Every call runs in one transaction. A write that returns without throwing has committed
/// durably (in a `MemoryLedger`: until its process stops). Errors are `LedgerError`s whose message starts with what was being done. Use a
/// ledger from one thread (the server's service thread); it is not `Sendable`. Doubles read back
/// bit for bit (SQLite turns -0.0 into 0.0); NaN is refused. Dates are stored as unix
/// milliseconds, rounded to the nearest.
public protocol Ledger: AnyObject {
    /// Where the ledger is, for messages: the SQLite file's path, or the PostgreSQL URL without
    /// its password.
    var address: String { get }

    /// Holds `role` for as long as this ledger is open. Throws `inUse`, locking nothing, when
    /// another process holds a role that excludes it (LedgerRole).
    func lock(_ role: LedgerRole) throws(LedgerError)

    /// Marks every `running` round `interrupted` with ended_at = `now`; returns their ids,
    /// ascending (called once at the start of a sole writer: a crash left them running).
    func recoverInterrupted(now: Date) throws(LedgerError) -> [Int64]

    /// The ids of room `room`'s `running` rounds, ascending (a cluster node taking the room over
    /// resumes the newest and ends the others).
    func runningRounds(room: String) throws(LedgerError) -> [Int64]

    /// Inserts the round (status running) and its prizes in one transaction; returns the new id.
    /// Throws `invalid` for a NaN media start or a negative prize item or coins.
    func beginRound(_ round: NewRound) throws(LedgerError) -> Int64

    /// Claims running round `id` for a new holder (a cluster node taking its room over): raises
    /// the round's epoch by one and returns the new epoch (a round begins at epoch 0). It is the
    /// fence between two origins: from its commit on, `recordAward` and `endRound` with an older
    /// epoch are refused (`fenced`), and every award committed before it is seen by any read
    /// after it (the claim waits for an award being written). Throws `notFound` for an unknown
    /// or ended round.
    func claimRound(_ id: Int64) throws(LedgerError) -> Int64

    /// Ends a running round: sets its status (`finished` or `interrupted`) and ended_at, if the
    /// caller holds `epoch`, the round's current one. Throws `notFound` for an unknown or already
    /// ended round, `fenced` for an older epoch, `invalid` for status `running`.
    func endRound(_ id: Int64, status: RoundStatus, at: Date, epoch: Int64) throws(LedgerError)

    /// Commits one award durably, if the caller holds `epoch`, the round's current one, and returns
    /// it with its id (and `createdAt` to the millisecond, as stored). Throws `duplicate`,
    /// changing nothing, when the round's item already has an award (a database constraint
    /// decides, so this holds across processes); `notFound` when the round does not exist or is
    /// not running; `fenced` when another holder has claimed it since (`claimRound`); `invalid`
    /// for negative coins or item, or a NaN position or time. `award.id` is ignored.
    func recordAward(_ award: AwardRow, epoch: Int64) throws(LedgerError) -> AwardRow

    /// Takes back award `id` of round `round`, committed after its caller had stopped waiting for
    /// it (`LedgerThread`: the tapper was told `ledger_unavailable`), if the caller still holds
    /// `epoch` and the round is running. Throws `fenced` or `notFound`, changing nothing, when not:
    /// the award then stands.
    func voidAward(_ id: Int64, round: Int64, epoch: Int64) throws(LedgerError)

    /// The round with its prize plan and awards (in id order), or nil when there is none.
    func round(id: Int64) throws(LedgerError) -> RoundRecord?

    /// The room's players ranked by coins won in that room's rounds (coins desc, then items
    /// desc, then player id asc, by bytes), at most `limit` (none for a limit below 1); rank is
    /// the 1-based position. The name is the one on the player's latest award in any room.
    func leaderboard(room: String, limit: Int) throws(LedgerError) -> [LeaderboardEntry]

    /// A player's totals over every room, with their `recentLimit` newest awards (none for a
    /// limit below 1); nil when they have no award.
    func player(id: String, recentLimit: Int) throws(LedgerError) -> PlayerSummary?

    /// Total coins of a player over every room (0 when none).
    func totalCoins(player: String) throws(LedgerError) -> Int

    /// Round ids of a room, newest (highest id) first, at most `limit` (none for a limit below 1).
    func rounds(room: String, limit: Int) throws(LedgerError) -> [Int64]

    /// The ids of the rounds `filter` lets through, ascending (`layercast replay --all`).
    func roundIDs(_ filter: RoundFilter) throws(LedgerError) -> [Int64]

    /// The complete check (`layercast ledger check`): the schema, and for SQLite its
    /// `integrity_check`; throws `corrupt` naming what is wrong.
    func verify() throws(LedgerError)

    /// The secret kept under `name`; when there is none yet, `candidate` is kept and answered.
    /// Every process on this ledger gets the same value, whichever asked first (the key of
    /// public player ids, docs/cluster.md).
    func sharedSecret(_ name: String, candidate: String) throws(LedgerError) -> String

    /// Counts of what the ledger holds, read in one snapshot.
    func summary() throws(LedgerError) -> LedgerSummary
}

extension Ledger {
    /// `endRound` of a round nobody has claimed (epoch 0: one process, a test).
    public func endRound(_ id: Int64, status: RoundStatus, at: Date) throws(LedgerError) {
        try endRound(id, status: status, at: at, epoch: 0)
    }

    /// `recordAward` in a round nobody has claimed (epoch 0: one process, a test).
    public func recordAward(_ award: AwardRow) throws(LedgerError) -> AwardRow {
        try recordAward(award, epoch: 0)
    }
}
