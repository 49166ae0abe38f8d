/// The PostgreSQL ledger's tables, in the connection's current schema, versioned by the
/// `layercast_schema` table (one row per version applied; the highest is the current one). The
/// versions are SQLite's (`SQLiteSchema.version`): the same columns, in PostgreSQL's types. A new
/// database gets version 1's tables and then every migration; an older one the migrations it
/// lacks, in one transaction under an advisory lock, so nodes starting together migrate once; a
/// version this build does not know, or ledger tables without a version, are refused untouched.
enum PostgresSchema {
    /// The version this build writes: 1 + the number of migrations.
    static var version: Int { 1 + migrations.count }

    /// Version 1, the rains of the first release (migration 5 makes them rounds of any scene).
    /// Dates are unix milliseconds; `seed` is the UInt64 seed's Int64 bit pattern.
    /// `awards_once` is what makes an award exactly-once across every node sharing the database.
    static let tables = """
        CREATE TABLE layercast_schema (
            version integer PRIMARY KEY,
            applied_at bigint NOT NULL
        );
        CREATE TABLE rains (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            room text NOT NULL,
            seed bigint NOT NULL,
            duration float8 NOT NULL,
            pool bigint NOT NULL,
            winners bigint NOT NULL,
            min_coins bigint NOT NULL,
            max_coins bigint NOT NULL,
            width float8 NOT NULL,
            height float8 NOT NULL,
            media_start float8 NOT NULL,
            status text NOT NULL CHECK (status IN ('running', 'finished', 'interrupted')),
            created_at bigint NOT NULL,
            ended_at bigint,
            CHECK ((status = 'running') = (ended_at IS NULL))
        );
        CREATE INDEX rains_by_room ON rains (room, id);

        CREATE TABLE prizes (
            rain bigint NOT NULL REFERENCES rains (id),
            packet bigint NOT NULL CHECK (packet >= 0),
            coins bigint NOT NULL CHECK (coins >= 0),
            PRIMARY KEY (rain, packet)
        );

        CREATE TABLE awards (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            rain bigint NOT NULL REFERENCES rains (id),
            packet bigint NOT NULL CHECK (packet >= 0),
            player text NOT NULL,
            name text NOT NULL,
            coins bigint NOT NULL CHECK (coins >= 0),
            x float8 NOT NULL,
            y float8 NOT NULL,
            view_time float8 NOT NULL,
            server_time float8 NOT NULL,
            created_at bigint NOT NULL,
            CONSTRAINT awards_once UNIQUE (rain, packet)
        );
        CREATE INDEX awards_by_player ON awards (player);

        INSERT INTO layercast_schema (version, applied_at) VALUES (1, \(now));
        """

    /// `migrations[i]` takes version i + 1 to version i + 2 (SQLiteSchema's, one for one).
    static let migrations = [
        // 2: provably fair rains (see SQLiteSchema.migrations).
        """
        ALTER TABLE rains
            ADD COLUMN salt text NOT NULL DEFAULT '',
            ADD COLUMN commitment text NOT NULL DEFAULT '',
            ADD COLUMN max_awards_per_player bigint NOT NULL DEFAULT 0,
            ADD COLUMN max_coins_per_player bigint NOT NULL DEFAULT 0,
            ADD COLUMN min_visible float8 NOT NULL DEFAULT 0,
            ADD COLUMN tap_rate float8 NOT NULL DEFAULT 20,
            ADD COLUMN players bigint NOT NULL DEFAULT 0;
        INSERT INTO layercast_schema (version, applied_at) VALUES (2, \(now));
        """,
        // 3: a rain's epoch, the fence between two origins (see SQLiteSchema.migrations).
        """
        ALTER TABLE rains ADD COLUMN epoch bigint NOT NULL DEFAULT 0;
        INSERT INTO layercast_schema (version, applied_at) VALUES (3, \(now));
        """,
        // 4: secrets every process on the ledger shares (see SQLiteSchema.migrations).
        """
        CREATE TABLE secrets (
            name text CONSTRAINT secrets_once PRIMARY KEY,
            value text NOT NULL
        );
        INSERT INTO layercast_schema (version, applied_at) VALUES (4, \(now));
        """,
        // 5: rounds of any scene (see SQLiteSchema.migrations): `rains` becomes `rounds` with the
        // scene's id and its settings as JSON text (float8 prints its shortest exact digits), and
        // prizes and awards are keyed by (round, item); `awards_once` keeps its name.
        """
        ALTER TABLE rains RENAME TO rounds;
        ALTER INDEX rains_by_room RENAME TO rounds_by_room;
        ALTER TABLE rounds ADD COLUMN scene text NOT NULL DEFAULT 'rain', ADD COLUMN settings text NOT NULL DEFAULT '';
        UPDATE rounds SET settings = json_build_object(
            'duration', duration, 'pool', pool, 'winners', winners, 'minCoins', min_coins, 'maxCoins', max_coins,
            'width', width, 'height', height, 'maxAwardsPerPlayer', max_awards_per_player,
            'maxCoinsPerPlayer', max_coins_per_player, 'minVisible', min_visible, 'tapRate', tap_rate,
            'players', players)::text;
        ALTER TABLE rounds
            ALTER COLUMN scene DROP DEFAULT, ALTER COLUMN settings DROP DEFAULT,
            ALTER COLUMN salt DROP DEFAULT, ALTER COLUMN commitment DROP DEFAULT,
            DROP COLUMN duration, DROP COLUMN pool, DROP COLUMN winners, DROP COLUMN min_coins, DROP COLUMN max_coins,
            DROP COLUMN width, DROP COLUMN height, DROP COLUMN max_awards_per_player, DROP COLUMN max_coins_per_player,
            DROP COLUMN min_visible, DROP COLUMN tap_rate, DROP COLUMN players;
        ALTER TABLE prizes RENAME COLUMN rain TO round;
        ALTER TABLE prizes RENAME COLUMN packet TO item;
        ALTER TABLE awards RENAME COLUMN rain TO round;
        ALTER TABLE awards RENAME COLUMN packet TO item;
        INSERT INTO layercast_schema (version, applied_at) VALUES (5, \(now));
        """,
    ]

    /// Every column the current version reads, table by table: `check` selects them.
    static let columns = [
        "rounds": "id, scene, room, seed, salt, commitment, settings, media_start, status, created_at, ended_at, epoch",
        "prizes": "round, item, coins",
        "awards": "id, round, item, player, name, coins, x, y, view_time, server_time, created_at",
        "secrets": "name, value",
    ]

    /// The current time as unix milliseconds, in SQL.
    private static let now = "(extract(epoch FROM clock_timestamp()) * 1000)::bigint"

    /// Any number that every Layercast process takes as its lock while it prepares the schema.
    private static let lockKey: Int64 = 0x4c61_7965_7263_6173  // "Layercas"

    /// Creates the tables in a database without them; migrates an older version; checks the
    /// columns. Throws `schema` (or `corrupt` for missing columns), changing nothing.
    static func prepare(_ connection: PostgresConnection, address: String) throws(LedgerError) {
        do throws(LedgerError) {
            try connection.transaction("BEGIN") { () throws(LedgerError) in
                try connection.run("SELECT pg_advisory_xact_lock($1)", [.integer(lockKey)])
                let found = try currentVersion(connection)
                if found == version { return }
                if let found, (1..<version).contains(found) {
                    for migration in migrations[(found - 1)...] { try connection.execute(migration) }
                    return
                }
                if let found {
                    throw LedgerError(
                        .schema, "\(address) has ledger schema version \(found); this build knows only version \(version) (is it newer?)")
                }
                let existing = try connection.query(
                    """
                    SELECT c.relname FROM pg_class c
                    WHERE c.relnamespace = current_schema()::regnamespace AND c.relname IN ('rains', 'rounds', 'prizes', 'awards')
                    ORDER BY c.relname
                    """
                ) { $0.text(0) }
                guard existing.isEmpty else {
                    throw LedgerError(
                        .schema, "\(address) has tables \(existing.joined(separator: ", ")) but no layercast_schema: "
                            + "it is not a Layercast ledger; left unchanged")
                }
                try connection.execute(tables)
                for migration in migrations { try connection.execute(migration) }
            }
        } catch where error.code == .schema {
            throw error
        } catch {
            throw LedgerError(.schema, "cannot prepare the ledger schema in \(address): \(error.message)")
        }
        try check(connection, address: address)
    }

    /// The highest version in `layercast_schema`, nil when the table is missing.
    static func currentVersion(_ connection: PostgresConnection) throws(LedgerError) -> Int? {
        let exists = try connection.query("SELECT to_regclass('layercast_schema') IS NOT NULL") { $0.text(0) }.first == "t"
        guard exists else { return nil }
        return try connection.query("SELECT coalesce(max(version), 0) FROM layercast_schema") { row throws(LedgerError) in
            try row.int(0)
        }.first
    }

    /// Throws `corrupt` when a table lacks a column the current version reads, or awards lack
    /// the `awards_once` constraint.
    static func check(_ connection: PostgresConnection, address: String) throws(LedgerError) {
        do throws(LedgerError) {
            try connection.transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") { () throws(LedgerError) in
                for (table, columns) in Self.columns.sorted(by: { $0.key < $1.key }) {
                    try connection.run("SELECT \(columns) FROM \(table) LIMIT 0")
                }
                let unique = try connection.query(
                    """
                    SELECT count(*) FROM pg_constraint
                    WHERE conrelid = 'awards'::regclass AND conname = 'awards_once' AND contype = 'u'
                      AND conkey::int[] = ARRAY[
                        (SELECT attnum FROM pg_attribute WHERE attrelid = 'awards'::regclass AND attname = 'round'),
                        (SELECT attnum FROM pg_attribute WHERE attrelid = 'awards'::regclass AND attname = 'item')]::int[]
                    """
                ) { row throws(LedgerError) in try row.int(0) }.first ?? 0
                guard unique == 1 else { throw LedgerError(.corrupt, "awards lack the constraint awards_once UNIQUE (round, item)") }
            }
        } catch {
            throw LedgerError(
                .corrupt, "the ledger \(address) does not match ledger schema version \(version): \(error.message). "
                    + "Layercast will not use it; restore the database from a backup (pg_dump) or point --ledger at an empty one.")
        }
    }
}
