/// SQLite's side of `SQLDialect`: `?1` placeholders; its integer sums and default BINARY collation
/// need no words; rows go one INSERT each; a writing transaction (BEGIN IMMEDIATE) holds the whole
/// database, so a SELECT locks no row.
struct SQLiteDialect: SQLDialect {
    func parameter(_ number: Int) -> String { "?\(number)" }

    func bigint(_ expression: String) -> String { expression }

    func bytewise(_ expression: String) -> String { expression }

    /// SQLite names no constraint in an upsert: it names the constraint's columns.
    func onConflict(constraint: String, columns: String) -> String { "ON CONFLICT (\(columns))" }

    func locking(_ select: String, _ lock: RowLock) -> String { select }

    var bindsArrays: Bool { false }
}
