/// The ledger's tables, versioned with `PRAGMA user_version`. A new database gets version 1; a
/// version this build does not know, or a non-empty database without one, is refused untouched.
enum LedgerSchema {
    static let version = 1

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

    /// Creates the tables in an empty database; checks the version of an existing one.
    static func prepare(_ connection: SQLiteConnection, path: String) throws(LedgerError) {
        do throws(LedgerError) {
            try connection.transaction(immediate: true) { () throws(LedgerError) in
                let found = try connection.query("PRAGMA user_version") { $0.int(0) }.first ?? 0
                if found == version { return }
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
            }
        } catch where error.code == .schema {
            throw error
        } catch {
            throw LedgerError(.schema, "cannot prepare the ledger schema in \(path): \(error.message)")
        }
    }
}
