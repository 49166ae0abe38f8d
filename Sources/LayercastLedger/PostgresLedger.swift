import Foundation

/// The ledger in a PostgreSQL database, shared by every node of a cluster (`--ledger
/// postgres://USER@HOST:PORT/DB`).
///
/// Writes run at READ COMMITTED and lock the rain row they depend on (an award shares it, ending
/// the rain takes it), so no award lands in a rain that has ended; reads run in one REPEATABLE READ
/// snapshot. A write returns once its COMMIT has returned with `synchronous_commit = on`. The
/// `awards_once` constraint, not any node's memory, keeps a packet from being awarded twice.
/// Doubles are float8, read back bit for bit (-0.0 included); text cannot hold NUL.
public final class PostgresLedger: Ledger {
    public let address: String
    let connection: PostgresConnection

    /// Connects to `url` and creates or migrates the schema (PostgresSchema). Throws `open` when
    /// the server cannot be reached or refuses, `schema` for an unknown version or a database
    /// that is not a ledger, `corrupt` when the tables lack a column or the awards constraint.
    /// `address` is the URL without its password, for messages.
    public init(url: String, address: String) throws(LedgerError) {
        self.address = address
        do throws(LedgerError) {
            connection = try PostgresConnection(url: url)
        } catch {
            throw LedgerError(.open, "cannot connect: \(error.message)")
        }
        try PostgresSchema.prepare(connection, address: address)
    }

    /// The claim is a session-level advisory lock on `claimKey` (exclusive for a sole writer,
    /// shared for a cluster node), which PostgreSQL releases when the session ends, however the
    /// process ends; a session lost and re-established takes it again.
    public func claim(_ role: LedgerRole) throws(LedgerError) {
        let taken: Bool
        do throws(LedgerError) {
            taken = try connection.takeSessionLock(.init(key: Self.claimKey, shared: role == .clusterNode))
        } catch {
            throw LedgerError(error.code, "claim the ledger: \(error.message)")
        }
        guard taken else {
            throw LedgerError(.inUse, "another process serves the ledger \(address)\(role == .soleWriter ? "" : " as its sole writer")")
        }
    }

    /// The advisory lock key of the claim: "Layerrol", apart from the schema's key.
    static let claimKey: Int64 = 0x4c61_7965_7272_6f6c

    public func recoverInterrupted(now: Date) throws(LedgerError) -> [Int64] {
        try writing("recover interrupted rains") { () throws(LedgerError) in
            try connection.query(
                "UPDATE rains SET status = 'interrupted', ended_at = $1 WHERE status = 'running' RETURNING id",
                [.integer(now.unixMilliseconds)], read: { row throws(LedgerError) in try row.int64(0) }
            ).sorted()
        }
    }

    public func runningRains(room: String) throws(LedgerError) -> [Int64] {
        try reading("read the running rains of room \(room)") { () throws(LedgerError) in
            try connection.query(
                "SELECT id FROM rains WHERE status = 'running' AND room = $1 ORDER BY id",
                [.text(room)], read: { row throws(LedgerError) in try row.int64(0) })
        }
    }

    public func beginRain(_ rain: NewRain) throws(LedgerError) -> Int64 {
        try writing("begin rain in room \(rain.room)") { () throws(LedgerError) in
            let settings = rain.settings
            try LedgerError.refuseNaN([
                ("duration", settings.duration), ("width", settings.width), ("height", settings.height),
                ("mediaStart", rain.mediaStart), ("minVisible", settings.minVisible), ("tapRate", settings.tapRate),
            ])
            let id = try connection.query(
                """
                INSERT INTO rains (room, seed, duration, pool, winners, min_coins, max_coins, width, height,
                                   media_start, status, created_at, salt, commitment, max_awards_per_player,
                                   max_coins_per_player, min_visible, tap_rate, players)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'running', $11, $12, $13, $14, $15, $16, $17, $18)
                RETURNING id
                """,
                [
                    .text(rain.room), .integer(Int64(bitPattern: rain.seed)), .real(settings.duration),
                    .integer(Int64(settings.pool)), .integer(Int64(settings.winners)),
                    .integer(Int64(settings.minCoins)), .integer(Int64(settings.maxCoins)),
                    .real(settings.width), .real(settings.height), .real(rain.mediaStart),
                    .integer(rain.createdAt.unixMilliseconds), .text(rain.salt), .text(rain.commitment),
                    .integer(Int64(settings.maxAwardsPerPlayer)), .integer(Int64(settings.maxCoinsPerPlayer)),
                    .real(settings.minVisible), .real(settings.tapRate), .integer(Int64(settings.players)),
                ], read: { row throws(LedgerError) in try row.int64(0) })[0]
            let prizes = rain.prizes.sorted { $0.key < $1.key }
            try connection.run(
                "INSERT INTO prizes (rain, packet, coins) SELECT $1, packet, coins FROM unnest($2::bigint[], $3::bigint[]) AS p (packet, coins)",
                [.integer(id), .integers(prizes.map { Int64($0.key) }), .integers(prizes.map { Int64($0.value) })])
            return id
        }
    }

    public func endRain(_ id: Int64, status: RainStatus, at: Date) throws(LedgerError) {
        try writing("end rain \(id)") { () throws(LedgerError) in
            guard status != .running else { throw LedgerError(.invalid, "a rain ends finished or interrupted, not running") }
            try requireRunning(id, lock: "FOR UPDATE")
            try connection.run(
                "UPDATE rains SET status = $2, ended_at = $3 WHERE id = $1",
                [.integer(id), .text(status.rawValue), .integer(at.unixMilliseconds)])
        }
    }

    public func recordAward(_ award: AwardRow) throws(LedgerError) -> AwardRow {
        try writing("record award of packet \(award.packet) in rain \(award.rain)") { () throws(LedgerError) in
            try LedgerError.refuseNaN([
                ("x", award.x), ("y", award.y), ("viewTime", award.viewTime), ("serverTime", award.serverTime),
            ])
            try requireRunning(award.rain, lock: "FOR SHARE")
            let createdAt = award.createdAt.unixMilliseconds
            // ON CONFLICT leaves the row of the first award alone and returns nothing.
            let ids = try connection.query(
                """
                INSERT INTO awards (rain, packet, player, name, coins, x, y, view_time, server_time, created_at)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
                ON CONFLICT ON CONSTRAINT awards_once DO NOTHING
                RETURNING id
                """,
                [
                    .integer(award.rain), .integer(Int64(award.packet)), .text(award.player), .text(award.name),
                    .integer(Int64(award.coins)), .real(award.x), .real(award.y), .real(award.viewTime),
                    .real(award.serverTime), .integer(createdAt),
                ], read: { row throws(LedgerError) in try row.int64(0) })
            guard let id = ids.first else { throw LedgerError(.duplicate, "the packet is already awarded") }
            var stored = award
            stored.id = id
            stored.createdAt = Date(unixMilliseconds: createdAt)
            return stored
        }
    }

    public func rain(id: Int64) throws(LedgerError) -> RainRecord? {
        try reading("read rain \(id)") { () throws(LedgerError) -> RainRecord? in
            let rows = try connection.query(
                """
                SELECT room, seed, duration, pool, winners, min_coins, max_coins, width, height,
                       media_start, status, created_at, ended_at, salt, commitment, max_awards_per_player,
                       max_coins_per_player, min_visible, tap_rate, players
                FROM rains WHERE id = $1
                """,
                [.integer(id)]
            ) { row throws(LedgerError) in
                (
                    room: row.text(0), seed: UInt64(bitPattern: try row.int64(1)),
                    settings: RainSettingsRow(
                        duration: try row.double(2), pool: try row.int(3), winners: try row.int(4), minCoins: try row.int(5),
                        maxCoins: try row.int(6), width: try row.double(7), height: try row.double(8),
                        maxAwardsPerPlayer: try row.int(15), maxCoinsPerPlayer: try row.int(16),
                        minVisible: try row.double(17), tapRate: try row.double(18), players: try row.int(19)),
                    mediaStart: try row.double(9), status: row.text(10), createdAt: try row.int64(11),
                    endedAt: try row.optionalInt64(12), salt: row.text(13), commitment: row.text(14)
                )
            }
            guard let rain = rows.first else { return nil }
            guard let status = RainStatus(rawValue: rain.status) else {
                throw LedgerError(.io, "unknown status \(rain.status)")
            }
            let prizes = try connection.query("SELECT packet, coins FROM prizes WHERE rain = $1", [.integer(id)]) {
                row throws(LedgerError) in (packet: try row.int(0), coins: try row.int(1))
            }
            let awards = try connection.query(
                "SELECT \(Self.awardColumns) FROM awards WHERE rain = $1 ORDER BY id", [.integer(id)], read: award)
            return RainRecord(
                id: id, room: rain.room, seed: rain.seed, salt: rain.salt, commitment: rain.commitment, settings: rain.settings,
                mediaStart: rain.mediaStart, status: status, createdAt: Date(unixMilliseconds: rain.createdAt),
                endedAt: rain.endedAt.map(Date.init(unixMilliseconds:)),
                prizes: Dictionary(uniqueKeysWithValues: prizes.map { ($0.packet, $0.coins) }), awards: awards)
        }
    }

    public func leaderboard(room: String, limit: Int) throws(LedgerError) -> [LeaderboardEntry] {
        try reading("read the leaderboard of room \(room)") { () throws(LedgerError) in
            try connection.query(
                """
                SELECT a.player,
                       (SELECT latest.name FROM awards latest WHERE latest.player = a.player ORDER BY latest.id DESC LIMIT 1),
                       sum(a.coins)::bigint AS coins, count(*) AS packets
                FROM awards a JOIN rains r ON r.id = a.rain
                WHERE r.room = $1
                GROUP BY a.player
                ORDER BY coins DESC, packets DESC, a.player COLLATE "C" ASC
                LIMIT $2
                """,
                [.text(room), .integer(Int64(max(limit, 0)))]
            ) { row throws(LedgerError) in
                LeaderboardEntry(rank: 0, player: row.text(0), name: row.text(1), coins: try row.int(2), packets: try row.int(3))
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
                SELECT coalesce(sum(coins), 0)::bigint, count(*),
                       (SELECT name FROM awards WHERE player = $1 ORDER BY id DESC LIMIT 1)
                FROM awards WHERE player = $1
                """,
                [.text(id)]
            ) { row throws(LedgerError) in (coins: try row.int(0), packets: try row.int(1), name: row.text(2)) }
            guard let totals = totals.first, totals.packets > 0 else { return nil }
            let recent = try connection.query(
                "SELECT \(Self.awardColumns) FROM awards WHERE player = $1 ORDER BY id DESC LIMIT $2",
                [.text(id), .integer(Int64(max(recentLimit, 0)))], read: award)
            return PlayerSummary(player: id, name: totals.name, coins: totals.coins, packets: totals.packets, recent: recent)
        }
    }

    public func totalCoins(player: String) throws(LedgerError) -> Int {
        try reading("read the coins of player \(player)") { () throws(LedgerError) in
            try connection.query("SELECT coalesce(sum(coins), 0)::bigint FROM awards WHERE player = $1", [.text(player)]) {
                row throws(LedgerError) in try row.int(0)
            }.first ?? 0
        }
    }

    public func rains(room: String, limit: Int) throws(LedgerError) -> [Int64] {
        try reading("list the rains of room \(room)") { () throws(LedgerError) in
            try connection.query(
                "SELECT id FROM rains WHERE room = $1 ORDER BY id DESC LIMIT $2",
                [.text(room), .integer(Int64(max(limit, 0)))]
            ) { row throws(LedgerError) in try row.int64(0) }
        }
    }

    public func rainIDs(_ filter: RainFilter) throws(LedgerError) -> [Int64] {
        let (from, before) = filter.millisecondBounds
        let room = filter.room.map { (" AND room = $3", [PostgresConnection.Value.text($0)]) } ?? ("", [])
        return try reading("list the rains") { () throws(LedgerError) in
            try connection.query(
                "SELECT id FROM rains WHERE created_at >= $1 AND created_at < $2\(room.0) ORDER BY id",
                [.integer(from), .integer(before)] + room.1
            ) { row throws(LedgerError) in try row.int64(0) }
        }
    }

    /// The schema version, the columns and the awards constraint (`PostgresSchema.check`).
    public func verify() throws(LedgerError) {
        let found = try reading("read the schema version") { () throws(LedgerError) in try PostgresSchema.currentVersion(connection) }
        guard found == PostgresSchema.version else {
            throw LedgerError(.corrupt, "the ledger \(address) has schema version \(found.map { "\($0)" } ?? "none"), not \(PostgresSchema.version)")
        }
        try PostgresSchema.check(connection, address: address)
    }

    public func summary() throws(LedgerError) -> LedgerSummary {
        try reading("count what the ledger holds") { () throws(LedgerError) in
            let version = try PostgresSchema.currentVersion(connection) ?? 0
            let rains = try connection.query("SELECT count(*) FROM rains") { row throws(LedgerError) in try row.int(0) }.first ?? 0
            let awards = try connection.query("SELECT count(*), coalesce(sum(coins), 0)::bigint FROM awards") {
                row throws(LedgerError) in (try row.int(0), try row.int(1))
            }.first ?? (0, 0)
            return LedgerSummary(schemaVersion: version, rains: rains, awards: awards.0, coins: awards.1)
        }
    }

    // MARK: - Helpers

    /// Runs `body` in a READ COMMITTED transaction, prefixing any error's message with `what`.
    private func writing<T>(_ what: String, _ body: () throws(LedgerError) -> T) throws(LedgerError) -> T {
        try perform(what, "BEGIN ISOLATION LEVEL READ COMMITTED", body)
    }

    /// Runs `body` in one read-only snapshot, prefixing any error's message with `what`.
    private func reading<T>(_ what: String, _ body: () throws(LedgerError) -> T) throws(LedgerError) -> T {
        try perform(what, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", body)
    }

    private func perform<T>(_ what: String, _ begin: String, _ body: () throws(LedgerError) -> T) throws(LedgerError) -> T {
        do throws(LedgerError) {
            return try connection.transaction(begin, body)
        } catch {
            throw LedgerError(error.code, "\(what): \(error.message)")
        }
    }

    /// Throws `notFound` unless rain `id` exists and is running; `lock` (FOR SHARE, FOR UPDATE)
    /// holds its row until the transaction ends.
    private func requireRunning(_ id: Int64, lock: String) throws(LedgerError) {
        let status = try connection.query("SELECT status FROM rains WHERE id = $1 \(lock)", [.integer(id)]) { $0.text(0) }.first
        guard let status else { throw LedgerError(.notFound, "there is no rain \(id)") }
        guard status == RainStatus.running.rawValue else { throw LedgerError(.notFound, "rain \(id) is \(status), not running") }
    }

    private static let awardColumns = "id, rain, packet, player, name, coins, x, y, view_time, server_time, created_at"

    /// An award read with `awardColumns`.
    private func award(_ row: PostgresConnection.Row) throws(LedgerError) -> AwardRow {
        AwardRow(
            id: try row.int64(0), rain: try row.int64(1), packet: try row.int(2), player: row.text(3), name: row.text(4),
            coins: try row.int(5), x: try row.double(6), y: try row.double(7), viewTime: try row.double(8),
            serverTime: try row.double(9), createdAt: Date(unixMilliseconds: try row.int64(10)))
    }
}
