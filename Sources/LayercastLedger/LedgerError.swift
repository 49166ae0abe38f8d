/// Why a ledger call failed. `message` carries the database's own message where it refused
/// (PostgreSQL's ends with its SQLSTATE), and names the database when it could not be opened.
public struct LedgerError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Code: String, Sendable {
        /// The directory or database file could not be created or opened, or is not a database;
        /// or the PostgreSQL server could not be reached or refused the connection.
        case open
        /// The schema version is one this build does not know, or the database is not a ledger.
        case schema
        /// The file is damaged: empty or truncated, not an SQLite database, failing SQLite's own
        /// check, or missing tables or columns of the schema (in PostgreSQL: missing columns or
        /// the constraint that keeps awards unique). The message says how to recover.
        case corrupt
        /// The item of that round already has an award; nothing was changed.
        case duplicate
        /// No such round, or (for `recordAward` and `endRound`) the round is no longer running.
        case notFound = "not_found"
        /// The round was claimed by a newer holder (`Ledger.claimRound`: another node took its room
        /// over); this caller's epoch is stale and nothing was changed.
        case fenced
        /// The database failed while reading or writing (I/O error, lock timeout, full disk, lost
        /// connection, ...).
        case io
        /// Another process holds a lock on the ledger that excludes the one asked for
        /// (LedgerRole).
        case inUse = "in_use"
        /// A value the ledger cannot store: NaN, negative coins, ending a round as `running`, text
        /// holding NUL (PostgreSQL).
        case invalid
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }

    /// `duplicate`: the round's item already has an award.
    static let alreadyAwarded = LedgerError(.duplicate, "the item is already awarded")

    /// `invalid`: a round ends as `finished` or `interrupted`.
    static let endingAsRunning = LedgerError(.invalid, "a round ends finished or interrupted, not running")

    /// `notFound` for round `id`, which has `status` (nil: there is no such round).
    static func notRunning(_ id: Int64, status: String?) -> LedgerError {
        LedgerError(.notFound, status.map { "round \(id) is \($0), not running" } ?? "there is no round \(id)")
    }

    /// `fenced`: round `id` is at `current`, the caller holds only `held`.
    static func fenced(_ id: Int64, held: Int64, current: Int64) -> LedgerError {
        LedgerError(.fenced, "round \(id) was claimed by another holder (epoch \(current); this one holds \(held))")
    }

    /// Runs `body`, prefixing the message of what it throws with `what`, the call being made
    /// ("record award of item 3 in round 7: ...").
    static func during<T>(_ what: String, _ body: () throws(LedgerError) -> T) throws(LedgerError) -> T {
        do throws(LedgerError) {
            return try body()
        } catch {
            throw LedgerError(error.code, "\(what): \(error.message)")
        }
    }

    /// Throws `invalid` for the first NaN among `fields`: SQLite would store it as NULL, and
    /// neither ledger keeps a number no round can have.
    static func refuseNaN(_ fields: [(name: String, value: Double)]) throws(LedgerError) {
        if let field = fields.first(where: { $0.value.isNaN }) {
            throw LedgerError(.invalid, "\(field.name) is NaN, which cannot be stored")
        }
    }
}
