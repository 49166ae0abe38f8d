/// What `SQLLedger` needs of a database connection (`SQLiteConnection`, `PostgresConnection`):
/// one statement run with its parameters, its rows read.
protocol SQLConnection {
    associatedtype Row: SQLRow

    /// Runs one statement with `parameters`, returning each row as `read` makes it.
    func query<T>(_ sql: String, _ parameters: [SQLValue], read: (Row) throws(LedgerError) -> T) throws(LedgerError) -> [T]
}

extension SQLConnection {
    /// Runs one statement with `parameters`, ignoring any rows.
    func run(_ sql: String, _ parameters: [SQLValue] = []) throws(LedgerError) {
        _ = try query(sql, parameters) { _ in () }
    }
}
