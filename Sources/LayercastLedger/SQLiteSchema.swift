/// The ledger's tables, versioned with `PRAGMA user_version`. A new database gets version 1's
/// tables and then every migration; an older one gets the migrations it lacks, in one
/// transaction; a version this build does not know, or a non-empty database without one, is
/// refused untouched.
enum SQLiteSchema {
    /// The version this build writes: 1 + the number of migrations.
    static var version: Int { 1 + migrations.count }

    /// Version 1, the rains of the first release (migration 5 makes them rounds of any scene).
    /// STRICT tables, so a column holds only its declared type. Dates are unix milliseconds;
    /// `seed` is the UInt64 seed's Int64 bit pattern.
    static let tables = """
        CREATE TABLE rains (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            room TEXT NOT NULL,
            seed INTEGER NOT NULL,
            duration REAL NOT NULL,
            pool INTEGER NOT NULL,
            winners INTEGER NOT NULL,
            min_coins INTEGER NOT NULL,
            max_coins INTEGER NOT NULL,
            width REAL NOT NULL,
            height REAL NOT NULL,
            media_start REAL NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('running', 'finished', 'interrupted')),
            created_at INTEGER NOT NULL,
            ended_at INTEGER,
            CHECK ((status = 'running') = (ended_at IS NULL))
        ) STRICT;
        CREATE INDEX rains_by_room ON rains (room, id);

        CREATE TABLE prizes (
            rain INTEGER NOT NULL REFERENCES rains (id),
            packet INTEGER NOT NULL CHECK (packet >= 0),
            coins INTEGER NOT NULL CHECK (coins >= 0),
            PRIMARY KEY (rain, packet)
        ) STRICT, WITHOUT ROWID;

        CREATE TABLE awards (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            rain INTEGER NOT NULL REFERENCES rains (id),
            packet INTEGER NOT NULL CHECK (packet >= 0),
            player TEXT NOT NULL,
            name TEXT NOT NULL,
            coins INTEGER NOT NULL CHECK (coins >= 0),
            x REAL NOT NULL,
            y REAL NOT NULL,
            view_time REAL NOT NULL,
            server_time REAL NOT NULL,
            created_at INTEGER NOT NULL,
            UNIQUE (rain, packet)
        ) STRICT;
        CREATE INDEX awards_by_player ON awards (player);

        PRAGMA user_version = 1;
        """

    /// `migrations[i]` takes version i + 1 to version i + 2.
    static let migrations = [
        // 2: provably fair rains. A rain's secret salt (hex) and the commitment it published,
        // its per-player limits and the players its fair share was counted over. Rains of
        // version 1 had none of these: no salt, no limits, no on-screen rule and 20 taps/s.
        """
        ALTER TABLE rains ADD COLUMN salt TEXT NOT NULL DEFAULT '';
        ALTER TABLE rains ADD COLUMN commitment TEXT NOT NULL DEFAULT '';
        ALTER TABLE rains ADD COLUMN max_awards_per_player INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE rains ADD COLUMN max_coins_per_player INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE rains ADD COLUMN min_visible REAL NOT NULL DEFAULT 0;
        ALTER TABLE rains ADD COLUMN tap_rate REAL NOT NULL DEFAULT 20;
        ALTER TABLE rains ADD COLUMN players INTEGER NOT NULL DEFAULT 0;
        PRAGMA user_version = 2;
        """,
        // 3: the fence between two origins of a cluster (Ledger.claimRound): a rain's epoch,
        // raised by each node that takes its room over; an award or end under an older one is
        // refused.
        """
        ALTER TABLE rains ADD COLUMN epoch INTEGER NOT NULL DEFAULT 0;
        PRAGMA user_version = 3;
        """,
        // 4: secrets every process on the ledger shares (Ledger.sharedSecret), such as the key
        // of public player ids, kept with the awards it names.
        """
        CREATE TABLE secrets (
            name TEXT PRIMARY KEY,
            value TEXT NOT NULL
        ) STRICT, WITHOUT ROWID;
        PRAGMA user_version = 4;
        """,
        // 5: rounds of any scene. A rain is one round of the scene `rain`, its packets the round's
        // items: `rains` becomes `rounds`, which keeps the scene's id and the scene's own settings
        // as JSON text (a rain's typed columns move into it, each REAL printed with 21 significant
        // digits: SQLite's shorter forms do not always read back bit for bit, these do), and
        // prizes and awards are keyed by (round, item).
        // SQLite cannot drop or retype these columns in place: each table is rebuilt, its rows and
        // AUTOINCREMENT counter copied, the old one dropped.
        """
        CREATE TABLE rounds (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            scene TEXT NOT NULL,
            room TEXT NOT NULL,
            seed INTEGER NOT NULL,
            salt TEXT NOT NULL,
            commitment TEXT NOT NULL,
            settings TEXT NOT NULL,
            media_start REAL NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('running', 'finished', 'interrupted')),
            created_at INTEGER NOT NULL,
            ended_at INTEGER,
            epoch INTEGER NOT NULL DEFAULT 0,
            CHECK ((status = 'running') = (ended_at IS NULL))
        ) STRICT;
        INSERT INTO rounds (id, scene, room, seed, salt, commitment, settings, media_start, status, created_at, ended_at, epoch)
        SELECT id, 'rain', room, seed, salt, commitment,
               json_object('duration', json(printf('%!.20e', duration)), 'pool', pool, 'winners', winners,
                           'minCoins', min_coins, 'maxCoins', max_coins,
                           'width', json(printf('%!.20e', width)), 'height', json(printf('%!.20e', height)),
                           'maxAwardsPerPlayer', max_awards_per_player, 'maxCoinsPerPlayer', max_coins_per_player,
                           'minVisible', json(printf('%!.20e', min_visible)), 'tapRate', json(printf('%!.20e', tap_rate)),
                           'players', players),
               media_start, status, created_at, ended_at, epoch
        FROM rains ORDER BY id;
        CREATE INDEX rounds_by_room ON rounds (room, id);

        CREATE TABLE prizes_v5 (
            round INTEGER NOT NULL REFERENCES rounds (id),
            item INTEGER NOT NULL CHECK (item >= 0),
            coins INTEGER NOT NULL CHECK (coins >= 0),
            PRIMARY KEY (round, item)
        ) STRICT, WITHOUT ROWID;
        INSERT INTO prizes_v5 (round, item, coins) SELECT rain, packet, coins FROM prizes;

        CREATE TABLE awards_v5 (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            round INTEGER NOT NULL REFERENCES rounds (id),
            item INTEGER NOT NULL CHECK (item >= 0),
            player TEXT NOT NULL,
            name TEXT NOT NULL,
            coins INTEGER NOT NULL CHECK (coins >= 0),
            x REAL NOT NULL,
            y REAL NOT NULL,
            view_time REAL NOT NULL,
            server_time REAL NOT NULL,
            created_at INTEGER NOT NULL,
            UNIQUE (round, item)
        ) STRICT;
        INSERT INTO awards_v5 (id, round, item, player, name, coins, x, y, view_time, server_time, created_at)
        SELECT id, rain, packet, player, name, coins, x, y, view_time, server_time, created_at FROM awards ORDER BY id;

        DELETE FROM sqlite_sequence WHERE name IN ('rounds', 'awards_v5');
        INSERT INTO sqlite_sequence (name, seq) SELECT 'rounds', seq FROM sqlite_sequence WHERE name = 'rains';
        INSERT INTO sqlite_sequence (name, seq) SELECT 'awards_v5', seq FROM sqlite_sequence WHERE name = 'awards';
        DROP TABLE awards;
        DROP TABLE prizes;
        DROP TABLE rains;
        ALTER TABLE prizes_v5 RENAME TO prizes;
        ALTER TABLE awards_v5 RENAME TO awards;
        CREATE INDEX awards_by_player ON awards (player);
        PRAGMA user_version = 5;
        """,
    ]

    /// Creates the tables in an empty database; checks the version of an existing one.
    static func prepare(_ connection: SQLiteConnection, path: String) throws(LedgerError) {
        do throws(LedgerError) {
            try connection.transaction(immediate: true) { () throws(LedgerError) in
                let found = try connection.query("PRAGMA user_version") { $0.int(0) }.first ?? 0
                if found == version { return }
                if (1..<version).contains(found) {
                    for migration in migrations[(found - 1)...] { try connection.execute(migration) }
                    return
                }
                guard found == 0 else {
                    throw LedgerError(
                        .schema, "\(path) has ledger schema version \(found); this build knows only version \(version) (is it newer?)")
                }
                let objects = try connection.query("SELECT count(*) FROM sqlite_schema") { $0.int(0) }.first ?? 0
                guard objects == 0 else {
                    throw LedgerError(
                        .schema, "\(path) is an SQLite database but not a Layercast ledger (no schema version, \(objects) tables or indexes); left unchanged")
                }
                try connection.execute(tables)
                for migration in migrations { try connection.execute(migration) }
            }
        } catch where error.code == .schema {
            throw error
        } catch {
            throw LedgerError(.schema, "cannot prepare the ledger schema in \(path): \(error.message)")
        }
    }
}
