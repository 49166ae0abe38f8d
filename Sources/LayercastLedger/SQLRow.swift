/// One row of a result, as `SQLLedger` reads it from either database: a column that does not
/// hold the type asked for is an `io` error (SQLite's never fail).
protocol SQLRow {
    func int64(_ column: Int32) throws(LedgerError) -> Int64
    func int(_ column: Int32) throws(LedgerError) -> Int
    func double(_ column: Int32) throws(LedgerError) -> Double
    func optionalInt64(_ column: Int32) throws(LedgerError) -> Int64?
    func text(_ column: Int32) -> String
}
