/// The ledger's tables, versioned with `PRAGMA user_version`. A new database gets version 1's
/// tables and then every migration; an older one gets the migrations it lacks, in one
/// transaction; a version this build does not know, or a non-empty database without one, is
/// refused untouched.
enum SQLiteSchema {
    /// The version this build writes: 1 + the number of migrations.
    static var version: Int { 1 + migrations.count }

    /// Version 1. STRICT tables, so a column holds only its declared type. Dates are unix
    /// milliseconds; `seed` is the UInt64 seed's Int64 bit pattern.
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
        // 3: the fence between two origins of a cluster (Ledger.claimRain): a rain's epoch,
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
