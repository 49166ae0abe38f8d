/// PostgreSQL's side of `SQLDialect`: `$1` placeholders; sums of bigint are numeric, cast back;
/// text ordered by the "C" collation (bytes); upserts name their constraint; rows locked with
/// FOR SHARE / FOR UPDATE; arrays bound (`unnest`).
struct PostgresDialect: SQLDialect {
    func parameter(_ number: Int) -> String { "$\(number)" }

    func bigint(_ expression: String) -> String { "\(expression)::bigint" }

    func bytewise(_ expression: String) -> String { "\(expression) COLLATE \"C\"" }

    func onConflict(constraint: String, columns: String) -> String { "ON CONFLICT ON CONSTRAINT \(constraint)" }

    func locking(_ select: String, _ lock: RowLock) -> String { "\(select) \(lock.rawValue)" }

    var bindsArrays: Bool { true }
}
