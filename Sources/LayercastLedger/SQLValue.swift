/// A value bound to a statement parameter, in SQLite or PostgreSQL.
enum SQLValue {
    case integer(Int64)
    case real(Double)
    case text(String)
    /// A `bigint[]` (for `unnest($n::bigint[])`): PostgreSQL only (`SQLDialect.bindsArrays`).
    case integers([Int64])
}
