import Foundation

/// Every query of the ledger, written once: what `SQLiteLedger` and `PostgresLedger` share. The
/// SQL is said in terms of `dialect` (placeholders, casts, collation, upsert, row locks), its
/// parameters bound and its rows read through `SQLConnection`. A ledger supplies its connection,
/// its dialect and its transactions; opening, locking and checking stay its own.
protocol SQLLedger: Ledger {
    associatedtype Connection: SQLConnection

    var connection: Connection { get }
    static var dialect: any SQLDialect { get }

    /// Runs `body` in one transaction, which writes or only reads (`writing`), and commits it;
    /// when anything throws, rolls back and rethrows.
    func transaction<T>(writing: Bool, _ body: () throws(LedgerError) -> T) throws(LedgerError) -> T
}

extension SQLLedger {
    public func recoverInterrupted(now: Date) throws(LedgerError) -> [Int64] {
        try writing("recover interrupted rounds") { () throws(LedgerError) in
            try connection.query(
                "UPDATE rounds SET status = 'interrupted', ended_at = \(p(1)) WHERE status = 'running' RETURNING id",
                [.integer(now.unixMilliseconds)], read: { row throws(LedgerError) in try row.int64(0) }
            ).sorted()
        }
    }

    public func runningRounds(room: String) throws(LedgerError) -> [Int64] {
        try reading("read the running rounds of room \(room)") { () throws(LedgerError) in
            try connection.query(
                "SELECT id FROM rounds WHERE status = 'running' AND room = \(p(1)) ORDER BY id",
                [.text(room)], read: { row throws(LedgerError) in try row.int64(0) })
        }
    }

    public func beginRound(_ round: NewRound) throws(LedgerError) -> Int64 {
        try writing("begin a round of \(round.scene) in room \(round.room)") { () throws(LedgerError) in
            try round.refuseNaN()
            let id = try connection.query(
                """
                INSERT INTO rounds (scene, room, seed, salt, commitment, settings, media_start, status, created_at)
                VALUES (\(Self.dialect.parameters(1...7)), 'running', \(p(8)))
                RETURNING id
                """,
                [
                    .text(round.scene), .text(round.room), .integer(Int64(bitPattern: round.seed)), .text(round.salt),
                    .text(round.commitment), .text(round.settings), .real(round.mediaStart),
                    .integer(round.createdAt.unixMilliseconds),
                ], read: { row throws(LedgerError) in try row.int64(0) })[0]
            let prizes = round.prizes.sorted { $0.key < $1.key }
            if Self.dialect.bindsArrays {
                // The whole plan in one statement: one round trip to the server.
                try connection.run(
                    "INSERT INTO prizes (round, item, coins) SELECT \(p(1)), item, coins FROM unnest(\(p(2))::bigint[], \(p(3))::bigint[]) AS p (item, coins)",
                    [.integer(id), .integers(prizes.map { Int64($0.key) }), .integers(prizes.map { Int64($0.value) })])
            } else {
                for (item, coins) in prizes {
                    try connection.run(
                        "INSERT INTO prizes (round, item, coins) VALUES (\(p(1)), \(p(2)), \(p(3)))",
                        [.integer(id), .integer(Int64(item)), .integer(Int64(coins))])
                }
            }
            return id
        }
    }

    public func claimRound(_ id: Int64) throws(LedgerError) -> Int64 {
        try writing("claim round \(id)") { () throws(LedgerError) in
            // The row lock waits for an award being written under the old epoch (it holds a
            // share lock on the row), so that award is committed, and seen, before the claim.
            let epochs = try connection.query(
                "UPDATE rounds SET epoch = epoch + 1 WHERE id = \(p(1)) AND status = 'running' RETURNING epoch",
                [.integer(id)], read: { row throws(LedgerError) in try row.int64(0) })
            guard let epoch = epochs.first else {
                let status = try connection.query("SELECT status FROM rounds WHERE id = \(p(1))", [.integer(id)]) { $0.text(0) }.first
                throw LedgerError.notRunning(id, status: status)
            }
            return epoch
        }
    }

    public func endRound(_ id: Int64, status: RoundStatus, at: Date, epoch: Int64) throws(LedgerError) {
        try writing("end round \(id)") { () throws(LedgerError) in
            guard status != .running else { throw LedgerError.endingAsRunning }
            try requireRunning(id, holding: epoch, lock: .update)
            try connection.run(
                "UPDATE rounds SET status = \(p(2)), ended_at = \(p(3)) WHERE id = \(p(1))",
                [.integer(id), .text(status.rawValue), .integer(at.unixMilliseconds)])
        }
    }

    public func recordAward(_ award: AwardRow, epoch: Int64) throws(LedgerError) -> AwardRow {
        try writing("record award of item \(award.item) in round \(award.round)") { () throws(LedgerError) in
            try award.refuseNaN()
            try requireRunning(award.round, holding: epoch, lock: .share)
            let createdAt = award.createdAt.unixMilliseconds
            // DO NOTHING leaves the row of the first award alone and returns nothing.
            let ids = try connection.query(
                """
                INSERT INTO awards (round, item, player, name, coins, x, y, view_time, server_time, created_at)
                VALUES (\(Self.dialect.parameters(1...10)))
                \(Self.dialect.onConflict(constraint: "awards_once", columns: "round, item")) DO NOTHING
                RETURNING id
                """,
                [
                    .integer(award.round), .integer(Int64(award.item)), .text(award.player), .text(award.name),
                    .integer(Int64(award.coins)), .real(award.x), .real(award.y), .real(award.viewTime),
                    .real(award.serverTime), .integer(createdAt),
                ], read: { row throws(LedgerError) in try row.int64(0) })
            guard let id = ids.first else { throw LedgerError.alreadyAwarded }
            var stored = award
            stored.id = id
            stored.createdAt = Date(unixMilliseconds: createdAt)
            return stored
        }
    }

    public func voidAward(_ id: Int64, round: Int64, epoch: Int64) throws(LedgerError) {
        try writing("void award \(id) in round \(round)") { () throws(LedgerError) in
            try requireRunning(round, holding: epoch, lock: .update)
            try connection.run("DELETE FROM awards WHERE id = \(p(1)) AND round = \(p(2))", [.integer(id), .integer(round)])
        }
    }

    public func round(id: Int64) throws(LedgerError) -> RoundRecord? {
        try reading("read round \(id)") { () throws(LedgerError) -> RoundRecord? in
            let rows = try connection.query(
                "SELECT scene, room, seed, salt, commitment, settings, media_start, status, created_at, ended_at FROM rounds WHERE id = \(p(1))",
                [.integer(id)]
            ) { row throws(LedgerError) in
                (
                    scene: row.text(0), room: row.text(1), seed: UInt64(bitPattern: try row.int64(2)), salt: row.text(3),
                    commitment: row.text(4), settings: row.text(5), mediaStart: try row.double(6), status: row.text(7),
                    createdAt: try row.int64(8), endedAt: try row.optionalInt64(9)
                )
            }
            guard let round = rows.first else { return nil }
            guard let status = RoundStatus(rawValue: round.status) else {
                throw LedgerError(.io, "unknown status \(round.status)")
            }
            let prizes = try connection.query("SELECT item, coins FROM prizes WHERE round = \(p(1))", [.integer(id)]) {
                row throws(LedgerError) in (item: try row.int(0), coins: try row.int(1))
            }
            let awards = try connection.query(
                "SELECT \(Self.awardColumns) FROM awards WHERE round = \(p(1)) ORDER BY id", [.integer(id)], read: Self.award)
            return RoundRecord(
                id: id, scene: round.scene, room: round.room, seed: round.seed, salt: round.salt, commitment: round.commitment,
                settings: round.settings, mediaStart: round.mediaStart, status: status,
                createdAt: Date(unixMilliseconds: round.createdAt), endedAt: round.endedAt.map(Date.init(unixMilliseconds:)),
                prizes: Dictionary(uniqueKeysWithValues: prizes.map { ($0.item, $0.coins) }), awards: awards)
        }
    }

    public func leaderboard(room: String, limit: Int) throws(LedgerError) -> [LeaderboardEntry] {
        try reading("read the leaderboard of room \(room)") { () throws(LedgerError) in
            try connection.query(
                """
                SELECT a.player,
                       (SELECT latest.name FROM awards latest WHERE latest.player = a.player ORDER BY latest.id DESC LIMIT 1),
                       \(Self.dialect.bigint("sum(a.coins)")) AS coins, count(*) AS items
                FROM awards a JOIN rounds r ON r.id = a.round
                WHERE r.room = \(p(1))
                GROUP BY a.player
                ORDER BY coins DESC, items DESC, \(Self.dialect.bytewise("a.player")) ASC
                LIMIT \(p(2))
                """,
                [.text(room), .integer(Int64(max(limit, 0)))]
            ) { row throws(LedgerError) in
                LeaderboardEntry(rank: 0, player: row.text(0), name: row.text(1), coins: try row.int(2), items: try row.int(3))
            }.enumerated().map { offset, entry in
                var ranked = entry
                ranked.rank = offset + 1
                return ranked
            }
        }
    }

    public func player(id: String, recentLimit: Int) throws(LedgerError) -> PlayerSummary? {
        try reading("read player \(id)") { () throws(LedgerError) -> PlayerSummary? in
            let totals = try connection.query(
                """
                SELECT \(Self.dialect.bigint("coalesce(sum(coins), 0)")), count(*),
                       (SELECT name FROM awards WHERE player = \(p(1)) ORDER BY id DESC LIMIT 1)
                FROM awards WHERE player = \(p(1))
                """,
                [.text(id)]
            ) { row throws(LedgerError) in (coins: try row.int(0), items: try row.int(1), name: row.text(2)) }
            guard let totals = totals.first, totals.items > 0 else { return nil }
            let recent = try connection.query(
                "SELECT \(Self.awardColumns) FROM awards WHERE player = \(p(1)) ORDER BY id DESC LIMIT \(p(2))",
                [.text(id), .integer(Int64(max(recentLimit, 0)))], read: Self.award)
            return PlayerSummary(player: id, name: totals.name, coins: totals.coins, items: totals.items, recent: recent)
        }
    }

    public func totalCoins(player: String) throws(LedgerError) -> Int {
        try reading("read the coins of player \(player)") { () throws(LedgerError) in
            try connection.query(
                "SELECT \(Self.dialect.bigint("coalesce(sum(coins), 0)")) FROM awards WHERE player = \(p(1))", [.text(player)]
            ) { row throws(LedgerError) in try row.int(0) }.first ?? 0
        }
    }

    public func sharedSecret(_ name: String, candidate: String) throws(LedgerError) -> String {
        try writing("keep the secret \(name)") { () throws(LedgerError) in
            try connection.run(
                "INSERT INTO secrets (name, value) VALUES (\(p(1)), \(p(2))) \(Self.dialect.onConflict(constraint: "secrets_once", columns: "name")) DO NOTHING",
                [.text(name), .text(candidate)])
            guard let value = try connection.query("SELECT value FROM secrets WHERE name = \(p(1))", [.text(name)], read: { $0.text(0) }).first else { throw LedgerError(.corrupt, "the secret \(name) was kept and is gone") }
            return value
        }
    }

    public func rounds(room: String, limit: Int) throws(LedgerError) -> [Int64] {
        try reading("list the rounds of room \(room)") { () throws(LedgerError) in
            try connection.query(
                "SELECT id FROM rounds WHERE room = \(p(1)) ORDER BY id DESC LIMIT \(p(2))",
                [.text(room), .integer(Int64(max(limit, 0)))]
            ) { row throws(LedgerError) in try row.int64(0) }
        }
    }

    public func roundIDs(_ filter: RoundFilter) throws(LedgerError) -> [Int64] {
        let (from, before) = filter.millisecondBounds
        let room = filter.room.map { (" AND room = \(p(3))", [SQLValue.text($0)]) } ?? ("", [])
        return try reading("list the rounds") { () throws(LedgerError) in
            try connection.query(
                "SELECT id FROM rounds WHERE created_at >= \(p(1)) AND created_at < \(p(2))\(room.0) ORDER BY id",
                [.integer(from), .integer(before)] + room.1
            ) { row throws(LedgerError) in try row.int64(0) }
        }
    }

    /// Counts of what the ledger on `connection` holds, with its `schemaVersion`; run it in a
    /// transaction so that they are of one snapshot.
    static func summary(of connection: Connection, schemaVersion: Int) throws(LedgerError) -> LedgerSummary {
        let rounds = try connection.query("SELECT count(*) FROM rounds", []) { row throws(LedgerError) in try row.int(0) }.first ?? 0
        let awards = try connection.query("SELECT count(*), \(dialect.bigint("coalesce(sum(coins), 0)")) FROM awards", []) {
            row throws(LedgerError) in (try row.int(0), try row.int(1))
        }.first ?? (0, 0)
        return LedgerSummary(schemaVersion: schemaVersion, rounds: rounds, awards: awards.0, coins: awards.1)
    }

    // MARK: - Helpers

    /// Runs `body` in a transaction that writes, prefixing any error's message with `what`.
    func writing<T>(_ what: String, _ body: () throws(LedgerError) -> T) throws(LedgerError) -> T {
        try transaction(what, writing: true, body)
    }

    /// Runs `body` in a transaction that only reads, prefixing any error's message with `what`.
    func reading<T>(_ what: String, _ body: () throws(LedgerError) -> T) throws(LedgerError) -> T {
        try transaction(what, writing: false, body)
    }

    private func transaction<T>(_ what: String, writing: Bool, _ body: () throws(LedgerError) -> T) throws(LedgerError) -> T {
        try LedgerError.during(what) { () throws(LedgerError) in try transaction(writing: writing, body) }
    }

    /// The placeholder of the `number`th parameter.
    private func p(_ number: Int) -> String { Self.dialect.parameter(number) }

        /// Throws `notFound` unless round `id` is running, `fenced` unless it is at `epoch`; locks its
    /// row with `lock` until the transaction ends.
    private func requireRunning(_ id: Int64, holding epoch: Int64, lock: RowLock) throws(LedgerError) {
        let row = try connection.query(
            Self.dialect.locking("SELECT status, epoch FROM rounds WHERE id = \(p(1))", lock), [.integer(id)]
        ) { row throws(LedgerError) in (status: row.text(0), epoch: try row.int64(1)) }.first
        guard let row, row.status == RoundStatus.running.rawValue else { throw LedgerError.notRunning(id, status: row?.status) }
        guard row.epoch == epoch else { throw LedgerError.fenced(id, held: epoch, current: row.epoch) }
    }

    private static var awardColumns: String { "id, round, item, player, name, coins, x, y, view_time, server_time, created_at" }

    /// An award read with `awardColumns`.
    private static func award(_ row: Connection.Row) throws(LedgerError) -> AwardRow {
        AwardRow(
            id: try row.int64(0), round: try row.int64(1), item: try row.int(2), player: row.text(3), name: row.text(4),
            coins: try row.int(5), x: try row.double(6), y: try row.double(7), viewTime: try row.double(8),
            serverTime: try row.double(9), createdAt: Date(unixMilliseconds: try row.int64(10)))
    }
}
