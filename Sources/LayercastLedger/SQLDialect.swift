/// What the ledger's SQL says differently in SQLite and in PostgreSQL (`SQLiteDialect`,
/// `PostgresDialect`); `SQLLedger` writes each query once in terms of it.
protocol SQLDialect: Sendable {
    /// The placeholder of the `number`th parameter (from 1).
    func parameter(_ number: Int) -> String

    /// `expression`, an integer sum, as a 64-bit integer.
    func bigint(_ expression: String) -> String

    /// `expression`, text, compared byte by byte (for an order that is the same everywhere).
    func bytewise(_ expression: String) -> String

    /// The start of an `ON CONFLICT … DO …` clause for the unique constraint `constraint` on
    /// `columns` (e.g. "round, item").
    func onConflict(constraint: String, columns: String) -> String

    /// `select`, a SELECT of rows of one table, holding those rows with `lock` until the
    /// transaction ends.
    func locking(_ select: String, _ lock: RowLock) -> String

    /// Whether a statement can take an array parameter (`.integers`) and insert a row for each
    /// of its elements; else such rows go one statement each.
    var bindsArrays: Bool { get }
}

/// A lock on rows read in a transaction: `share` keeps others from changing them, `update` also
/// from locking them.
enum RowLock: String {
    case share = "FOR SHARE"
    case update = "FOR UPDATE"
}

extension SQLDialect {
    /// The placeholders of `numbers`, comma-separated.
    func parameters(_ numbers: ClosedRange<Int>) -> String {
        numbers.map(parameter).joined(separator: ", ")
    }
}
