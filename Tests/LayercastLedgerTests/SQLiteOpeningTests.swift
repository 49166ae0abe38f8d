import Foundation
import Testing
@testable import LayercastLedger

@Suite struct SQLiteOpeningTests {
    @Test func createsTheDirectoryAndItsParents() throws {
        try withTemporaryDirectory { directory in
            let nested = directory + "/a/b/c"
            let ledger = try SQLiteLedger(directory: nested)
            #expect(ledger.path == nested + "/layercast.sqlite")
            #expect(FileManager.default.fileExists(atPath: ledger.path))
            #expect(try SQLiteLedger(directory: nested + "/").path == nested + "/layercast.sqlite")
        }
    }

    /// The page cache is bounded at 256 KiB (negative cache_size is KiB), not SQLite's 2,000.
    @Test func thePageCacheIsBounded() throws {
        try withTemporaryDirectory { directory in
            let ledger = try SQLiteLedger(directory: directory)
            #expect(try ledger.connection.query("PRAGMA cache_size") { $0.int(0) } == [-256])
        }
    }

    @Test func aFileThatIsNotADatabaseFailsNamingThePath() throws {
        try withTemporaryDirectory { directory in
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let path = directory + "/layercast.sqlite"
            let garbage = String(repeating: "this is not an SQLite database\n", count: 200)
            try garbage.write(toFile: path, atomically: false, encoding: .utf8)
            let error = try #require(throws: LedgerError.self) { try SQLiteLedger(directory: directory) }
            #expect(error.code == .corrupt)
            #expect(error.message.hasPrefix("the ledger \(path) does not begin with the SQLite header"))
            #expect(try String(contentsOfFile: path, encoding: .utf8) == garbage)
        }
    }

    @Test func aNewerSchemaVersionIsRefused() throws {
        try withTemporaryDirectory { directory in
            let path = try SQLiteLedger(directory: directory).path
            try SQLiteConnection(path: path).execute("PRAGMA user_version = 6")
            let error = try #require(throws: LedgerError.self) { try SQLiteLedger(directory: directory) }
            #expect(error == LedgerError(
                .schema, "\(path) has ledger schema version 6; this build knows only version 5 (is it newer?)"))
        }
    }

    @Test func anotherDatabaseIsRefusedAndLeftUnchanged() throws {
        try withTemporaryDirectory { directory in
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let path = directory + "/layercast.sqlite"
            try SQLiteConnection(path: path).execute("CREATE TABLE notes (text TEXT)")
            let error = try #require(throws: LedgerError.self) { try SQLiteLedger(directory: directory) }
            #expect(error.code == .schema)
            #expect(error.message.hasPrefix("\(path) is an SQLite database but not a Layercast ledger"))
            let tables = try SQLiteConnection(path: path).query("SELECT name FROM sqlite_schema") { $0.text(0) }
            #expect(tables == ["notes"])
        }
    }

    @Test func aNewLedgerHasTheCurrentSchemaVersionInWALMode() throws {
        try withTemporaryDirectory { directory in
            let path = try SQLiteLedger(directory: directory).path
            let connection = try SQLiteConnection(path: path)
            #expect(try connection.query("PRAGMA user_version") { $0.int(0) } == [5])
            #expect(try connection.query("PRAGMA journal_mode") { $0.text(0) } == ["wal"])
            #expect(try connection.query("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name") { $0.text(0) }
                == ["awards", "prizes", "rounds", "secrets", "sqlite_sequence"])
        }
    }

    @Test func aVersionOneLedgerIsMigratedKeepingEveryRainAndAward() throws {
        try withTemporaryDirectory { directory in
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let path = directory + "/layercast.sqlite"
            let old = try SQLiteConnection(path: path)
            try old.execute(SQLiteSchema.tables)
            try old.execute("""
                INSERT INTO rains (room, seed, duration, pool, winners, min_coins, max_coins, width, height, media_start,
                                   status, created_at, ended_at)
                VALUES ('campaign', 7, 20, 888, 27, 8, 88, 414, 736, 3.5, 'finished', 1780000000000, 1780000030000);
                INSERT INTO prizes (rain, packet, coins) VALUES (1, 4, 37);
                INSERT INTO awards (rain, packet, player, name, coins, x, y, view_time, server_time, created_at)
                VALUES (1, 4, 'player-42', 'Ada', 37, 10, 20, 9.5, 9.6, 1780000010000);
                """)
            let ledger = try SQLiteLedger(directory: directory)
            #expect(try SQLiteConnection(path: path).query("PRAGMA user_version") { $0.int(0) } == [SQLiteSchema.version])
            let rain = try #require(try ledger.round(id: 1))
            // A version-1 rain had no salt, no commitment and no limits: no on-screen rule, 20 taps/s.
            #expect(rain.salt == "" && rain.commitment == "" && rain.seed == 7)
            #expect(rain.scene == "rain")
            #expect(try numbers(rain.settings) == ["duration": 20, "pool": 888, "winners": 27, "minCoins": 8, "maxCoins": 88,
                                                   "width": 414, "height": 736, "maxAwardsPerPlayer": 0, "maxCoinsPerPlayer": 0,
                                                   "minVisible": 0, "tapRate": 20, "players": 0])
            #expect(rain.prizes == [4: 37] && rain.awards.map(\.coins) == [37])
            // A second open finds the current version and changes nothing.
            _ = try SQLiteLedger(directory: directory)
            #expect(try ledger.round(id: 1) == rain)
        }
    }
}
