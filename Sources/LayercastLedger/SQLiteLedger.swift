import Foundation

/// The ledger in one SQLite file, `<directory>/layercast.sqlite`: the embedded default for one
/// process.
///
/// Every call runs in one transaction. A write that returns without throwing has committed
/// durably (WAL, synchronous=FULL): it survives a crash or SIGKILL of the process.
///
/// Doubles are stored bit for bit, except that -0.0 reads back as 0.0 (SQLite keeps integral
/// REALs as integers) and NaN is refused (SQLite would make it NULL).
public final class SQLiteLedger: Ledger {
    /// The database file: `<directory>/layercast.sqlite`.
    public let path: String
    let connection: SQLiteConnection
    /// The open `<directory>/layercast.lock` whose flock holds this ledger's claim, or -1.
    private var claimLock: Int32 = -1

    public var address: String { path }

    /// The most memory SQLite's page cache may hold for the ledger, in KiB (`PRAGMA cache_size`
    /// −256). A tap's award touches a handful of pages (the awards tail, its unique index, the
    /// rain's row and prize); SQLite's default of 2,000 KiB only made the heap grow with the file
    /// (docs/reliability.md, "The 60-minute soak").
    public static let pageCacheKiB = 256

    /// Opens the ledger in `directory`, creating the directory (and its parents) and the
    /// database when missing. Throws `open` when the file cannot be opened, `schema` when its
    /// schema version is unknown (newer) or it is some other database, `corrupt` when it is
    /// damaged (SQLiteIntegrity).
    public init(directory: String) throws(LedgerError) {
        path = directory.hasSuffix("/") ? directory + "layercast.sqlite" : directory + "/layercast.sqlite"
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw LedgerError(.open, "cannot create the ledger directory \(directory): \(error.localizedDescription)")
        }
        // Processes opening one directory at once (the nodes of a cluster on one machine) take
        // turns (a lock on the directory itself), so that none reads the file another is
        // creating as a truncated one.
        let lock = Glibc.open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if lock >= 0 { flock(lock, LOCK_EX) }
        defer {
            if lock >= 0 {
                flock(lock, LOCK_UN)
                close(lock)
            }
        }
        try SQLiteIntegrity.checkFile(path)
        do throws(LedgerError) {
            connection = try SQLiteConnection(path: path)
            try connection.execute("PRAGMA busy_timeout = 5000; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; PRAGMA cache_size = -\(Self.pageCacheKiB)")
            let mode = try connection.query("PRAGMA journal_mode = WAL") { $0.text(0) }.first
            guard mode == "wal" else { throw LedgerError(.io, "journal_mode is \(mode ?? "unknown"), not wal") }
        } catch {
            throw LedgerError(.open, "cannot open the ledger \(path): \(error.message)")
        }
        try SQLiteSchema.prepare(connection, path: path)
        try SQLiteIntegrity.check(connection, path: path, thorough: false)
    }

    deinit { if claimLock >= 0 { close(claimLock) } }

    /// The claim is a flock on `<directory>/layercast.lock` (exclusive for a sole writer, shared
    /// for a cluster node), which the kernel releases when the process ends, however it ends.
    public func claim(_ role: LedgerRole) throws(LedgerError) {
        let lockPath = (path as NSString).deletingLastPathComponent + "/layercast.lock"
        let file = Glibc.open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard file >= 0 else { throw LedgerError(.open, "cannot open \(lockPath): \(String(cString: strerror(errno)))") }
        guard flock(file, (role == .soleWriter ? LOCK_EX : LOCK_SH) | LOCK_NB) == 0 else {
            let reason = errno
            close(file)
            guard reason == EWOULDBLOCK else { throw LedgerError(.io, "cannot lock \(lockPath): \(String(cString: strerror(reason)))") }
            throw LedgerError(.inUse, "another process serves the ledger \(path)\(role == .soleWriter ? "" : " as its sole writer") (it holds \(lockPath))")
        }
        if claimLock >= 0 { close(claimLock) }
        claimLock = file
    }

    /// Marks every `running` rain `interrupted` with ended_at = `now`; returns their ids, ascending
    /// (called once at the start of a sole writer: a crash left them running).
    public func recoverInterrupted(now: Date) throws(LedgerError) -> [Int64] {
        try perform("recover interrupted rains") { () throws(LedgerError) in
            try connection.query(
                "UPDATE rains SET status = 'interrupted', ended_at = ?1 WHERE status = 'running' RETURNING id",
                [.integer(now.unixMilliseconds)]
            ) { $0.int64(0) }.sorted()
        }
    }

    public func runningRains(room: String) throws(LedgerError) -> [Int64] {
        try perform("read the running rains of room \(room)") { () throws(LedgerError) in
            try connection.query("SELECT id FROM rains WHERE status = 'running' AND room = ?1 ORDER BY id", [.text(room)]) { $0.int64(0) }
        }
    }

    /// Inserts the rain (status running) and its prizes in one transaction; returns the new id.
    /// Throws `invalid` for a NaN setting or a negative prize packet or coins.
    public func beginRain(_ rain: NewRain) throws(LedgerError) -> Int64 {
        try perform("begin rain in room \(rain.room)") { () throws(LedgerError) in
            let settings = rain.settings
            try LedgerError.refuseNaN([
                ("duration", settings.duration), ("width", settings.width), ("height", settings.height),
                ("mediaStart", rain.mediaStart), ("minVisible", settings.minVisible), ("tapRate", settings.tapRate),
            ])
            try connection.run(
                """
                INSERT INTO rains (room, seed, duration, pool, winners, min_coins, max_coins, width, height,
                                   media_start, status, created_at, salt, commitment, max_awards_per_player,
                                   max_coins_per_player, min_visible, tap_rate, players)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, 'running', ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)
                """,
                [
                    .text(rain.room), .integer(Int64(bitPattern: rain.seed)), .real(settings.duration),
                    .integer(Int64(settings.pool)), .integer(Int64(settings.winners)),
                    .integer(Int64(settings.minCoins)), .integer(Int64(settings.maxCoins)),
                    .real(settings.width), .real(settings.height), .real(rain.mediaStart),
                    .integer(rain.createdAt.unixMilliseconds), .text(rain.salt), .text(rain.commitment),
                    .integer(Int64(settings.maxAwardsPerPlayer)), .integer(Int64(settings.maxCoinsPerPlayer)),
                    .real(settings.minVisible), .real(settings.tapRate), .integer(Int64(settings.players)),
                ])
            let id = connection.lastInsertedRowID
            for (packet, coins) in rain.prizes {
                try connection.run(
                    "INSERT INTO prizes (rain, packet, coins) VALUES (?1, ?2, ?3)",
                    [.integer(id), .integer(Int64(packet)), .integer(Int64(coins))])
            }
            return id
        }
    }

    /// Ends a running rain: sets its status (`finished` or `interrupted`) and ended_at. Throws
    /// `notFound` for an unknown or already ended rain, `invalid` for status `running`.
    public func endRain(_ id: Int64, status: RainStatus, at: Date) throws(LedgerError) {
        try perform("end rain \(id)") { () throws(LedgerError) in
            guard status != .running else { throw LedgerError(.invalid, "a rain ends finished or interrupted, not running") }
            try requireRunning(id)
            try connection.run(
                "UPDATE rains SET status = ?2, ended_at = ?3 WHERE id = ?1",
                [.integer(id), .text(status.rawValue), .integer(at.unixMilliseconds)])
        }
    }

    /// Commits one award durably and returns it with its id (and `createdAt` to the millisecond,
    /// as stored). Throws `duplicate`, changing nothing, when the rain's packet already has an
    /// award; `notFound` when the rain does not exist or is not running; `invalid` for negative
    /// coins or packet, or a NaN position or time. `award.id` is ignored.
    public func recordAward(_ award: AwardRow) throws(LedgerError) -> AwardRow {
        try perform("record award of packet \(award.packet) in rain \(award.rain)") { () throws(LedgerError) in
            try LedgerError.refuseNaN([
                ("x", award.x), ("y", award.y), ("viewTime", award.viewTime), ("serverTime", award.serverTime),
            ])
            try requireRunning(award.rain)
            let createdAt = award.createdAt.unixMilliseconds
            do throws(LedgerError) {
                try connection.run(
                    """
                    INSERT INTO awards (rain, packet, player, name, coins, x, y, view_time, server_time, created_at)
                    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
                    """,
                    [
                        .integer(award.rain), .integer(Int64(award.packet)), .text(award.player), .text(award.name),
                        .integer(Int64(award.coins)), .real(award.x), .real(award.y), .real(award.viewTime),
                        .real(award.serverTime), .integer(createdAt),
                    ])
            } catch where error.code == .duplicate {
                throw LedgerError(.duplicate, "the packet is already awarded")
            }
            var stored = award
            stored.id = connection.lastInsertedRowID
            stored.createdAt = Date(unixMilliseconds: createdAt)
            return stored
        }
    }

    /// The rain with its prize plan and awards (in commit order), or nil when there is none.
    public func rain(id: Int64) throws(LedgerError) -> RainRecord? {
        try perform("read rain \(id)", writing: false) { () throws(LedgerError) -> RainRecord? in
            let rows = try connection.query(
                """
                SELECT room, seed, duration, pool, winners, min_coins, max_coins, width, height,
                       media_start, status, created_at, ended_at, salt, commitment, max_awards_per_player,
                       max_coins_per_player, min_visible, tap_rate, players
                FROM rains WHERE id = ?1
                """,
                [.integer(id)]
            ) { row in
                (
                    room: row.text(0), seed: UInt64(bitPattern: row.int64(1)),
                    settings: RainSettingsRow(
                        duration: row.double(2), pool: row.int(3), winners: row.int(4), minCoins: row.int(5),
                        maxCoins: row.int(6), width: row.double(7), height: row.double(8),
                        maxAwardsPerPlayer: row.int(15), maxCoinsPerPlayer: row.int(16), minVisible: row.double(17),
                        tapRate: row.double(18), players: row.int(19)),
                    mediaStart: row.double(9), status: row.text(10), createdAt: row.int64(11),
                    endedAt: row.optionalInt64(12), salt: row.text(13), commitment: row.text(14)
                )
            }
            guard let rain = rows.first else { return nil }
            guard let status = RainStatus(rawValue: rain.status) else {
                throw LedgerError(.io, "unknown status \(rain.status)")
            }
            let prizes = try connection.query("SELECT packet, coins FROM prizes WHERE rain = ?1", [.integer(id)]) {
                (packet: $0.int(0), coins: $0.int(1))
            }
            let awards = try connection.query(
                "SELECT \(Self.awardColumns) FROM awards WHERE rain = ?1 ORDER BY id", [.integer(id)], read: award)
            return RainRecord(
                id: id, room: rain.room, seed: rain.seed, salt: rain.salt, commitment: rain.commitment, settings: rain.settings,
                mediaStart: rain.mediaStart,
                status: status, createdAt: Date(unixMilliseconds: rain.createdAt),
                endedAt: rain.endedAt.map(Date.init(unixMilliseconds:)),
                prizes: Dictionary(uniqueKeysWithValues: prizes.map { ($0.packet, $0.coins) }), awards: awards)
        }
    }

    /// The room's players ranked by coins won in that room's rains (coins desc, then packets
    /// desc, then player id asc, by bytes), at most `limit` (none for a limit below 1); rank is
    /// the 1-based position. The name is the one on the player's latest award in any room.
    public func leaderboard(room: String, limit: Int) throws(LedgerError) -> [LeaderboardEntry] {
        try perform("read the leaderboard of room \(room)", writing: false) { () throws(LedgerError) in
            try connection.query(
                """
                SELECT a.player,
                       (SELECT latest.name FROM awards latest WHERE latest.player = a.player ORDER BY latest.id DESC LIMIT 1),
                       sum(a.coins) AS coins, count(*) AS packets
                FROM awards a JOIN rains r ON r.id = a.rain
                WHERE r.room = ?1
                GROUP BY a.player
                ORDER BY coins DESC, packets DESC, a.player ASC
                LIMIT ?2
                """,
                [.text(room), .integer(Int64(max(limit, 0)))]
            ) { row in
                LeaderboardEntry(rank: 0, player: row.text(0), name: row.text(1), coins: row.int(2), packets: row.int(3))
            }.enumerated().map { offset, entry in
                var ranked = entry
                ranked.rank = offset + 1
                return ranked
            }
        }
    }

    /// A player's totals over every room, with their `recentLimit` newest awards (none for a
    /// limit below 1); nil when they have no award.
    public func player(id: String, recentLimit: Int) throws(LedgerError) -> PlayerSummary? {
        try perform("read player \(id)", writing: false) { () throws(LedgerError) -> PlayerSummary? in
            let totals = try connection.query(
                """
                SELECT sum(coins), count(*),
                       (SELECT name FROM awards WHERE player = ?1 ORDER BY id DESC LIMIT 1)
                FROM awards WHERE player = ?1
                """,
                [.text(id)]
            ) { (coins: $0.int(0), packets: $0.int(1), name: $0.text(2)) }
            guard let totals = totals.first, totals.packets > 0 else { return nil }
            let recent = try connection.query(
                "SELECT \(Self.awardColumns) FROM awards WHERE player = ?1 ORDER BY id DESC LIMIT ?2",
                [.text(id), .integer(Int64(max(recentLimit, 0)))], read: award)
            return PlayerSummary(player: id, name: totals.name, coins: totals.coins, packets: totals.packets, recent: recent)
        }
    }

    /// Total coins of a player over every room (0 when none).
    public func totalCoins(player: String) throws(LedgerError) -> Int {
        try perform("read the coins of player \(player)", writing: false) { () throws(LedgerError) in
            try connection.query("SELECT coalesce(sum(coins), 0) FROM awards WHERE player = ?1", [.text(player)]) {
                $0.int(0)
            }.first ?? 0
        }
    }

    /// Rain ids of a room, newest (highest id) first, at most `limit` (none for a limit below 1).
    public func rains(room: String, limit: Int) throws(LedgerError) -> [Int64] {
        try perform("list the rains of room \(room)", writing: false) { () throws(LedgerError) in
            try connection.query(
                "SELECT id FROM rains WHERE room = ?1 ORDER BY id DESC LIMIT ?2",
                [.text(room), .integer(Int64(max(limit, 0)))]
            ) { $0.int64(0) }
        }
    }

    public func rainIDs(_ filter: RainFilter) throws(LedgerError) -> [Int64] {
        let (from, before) = filter.millisecondBounds
        let room = filter.room.map { (" AND room = ?3", [SQLiteConnection.Value.text($0)]) } ?? ("", [])
        return try perform("list the rains", writing: false) { () throws(LedgerError) in
            try connection.query(
                "SELECT id FROM rains WHERE created_at >= ?1 AND created_at < ?2\(room.0) ORDER BY id",
                [.integer(from), .integer(before)] + room.1
            ) { $0.int64(0) }
        }
    }

    // MARK: - Helpers

    /// Runs `body` in a transaction (a write takes the lock at BEGIN), prefixing any error's
    /// message with `what`.
    private func perform<T>(
        _ what: String, writing: Bool = true, _ body: () throws(LedgerError) -> T
    ) throws(LedgerError) -> T {
        do throws(LedgerError) {
            return try connection.transaction(immediate: writing, body)
        } catch {
            throw LedgerError(error.code, "\(what): \(error.message)")
        }
    }

    /// Throws `notFound` unless rain `id` exists and is running.
    private func requireRunning(_ id: Int64) throws(LedgerError) {
        let status = try connection.query("SELECT status FROM rains WHERE id = ?1", [.integer(id)]) { $0.text(0) }.first
        guard let status else { throw LedgerError(.notFound, "there is no rain \(id)") }
        guard status == RainStatus.running.rawValue else { throw LedgerError(.notFound, "rain \(id) is \(status), not running") }
    }

    private static let awardColumns = "id, rain, packet, player, name, coins, x, y, view_time, server_time, created_at"

    /// An award read with `awardColumns`.
    private func award(_ row: SQLiteConnection.Row) -> AwardRow {
        AwardRow(
            id: row.int64(0), rain: row.int64(1), packet: row.int(2), player: row.text(3), name: row.text(4),
            coins: row.int(5), x: row.double(6), y: row.double(7), viewTime: row.double(8), serverTime: row.double(9),
            createdAt: Date(unixMilliseconds: row.int64(10)))
    }
}
