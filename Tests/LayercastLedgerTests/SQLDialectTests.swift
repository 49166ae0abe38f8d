import Testing
@testable import LayercastLedger

/// What each dialect writes for the pieces of SQL in which SQLite and PostgreSQL differ.
@Suite struct SQLDialectTests {
    @Test func sqliteWritesItsOwnPieces() {
        let sqlite = SQLiteDialect()
        #expect(sqlite.parameters(1...3) == "?1, ?2, ?3")
        #expect(sqlite.bigint("sum(coins)") == "sum(coins)")
        #expect(sqlite.bytewise("a.player") == "a.player")
        #expect(sqlite.onConflict(constraint: "awards_once", columns: "round, item") == "ON CONFLICT (round, item)")
        #expect(sqlite.locking("SELECT status FROM rains WHERE id = ?1", .share) == "SELECT status FROM rains WHERE id = ?1")
        #expect(!sqlite.bindsArrays)
    }

    @Test func postgresWritesItsOwnPieces() {
        let postgres = PostgresDialect()
        #expect(postgres.parameters(1...3) == "$1, $2, $3")
        #expect(postgres.bigint("sum(coins)") == "sum(coins)::bigint")
        #expect(postgres.bytewise("a.player") == "a.player COLLATE \"C\"")
        #expect(postgres.onConflict(constraint: "awards_once", columns: "round, item") == "ON CONFLICT ON CONSTRAINT awards_once")
        #expect(postgres.locking("SELECT status FROM rains WHERE id = $1", .update) == "SELECT status FROM rains WHERE id = $1 FOR UPDATE")
        #expect(postgres.bindsArrays)
    }
}
