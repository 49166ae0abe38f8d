import Foundation
import Testing
@testable import LayercastLedger

/// Schema version 5 (rounds of any scene) opened over a real version-4 file and database, made
/// with version 4's own statements and filled with rains whose every value is an edge: each row
/// must read back the same, as a round of the scene `rain`, and the ledger must go on from there.
@Suite struct LedgerMigrationTests {
    /// A rain of version 4: its columns, in `insertRain`'s order.
    struct OldRain {
        var room: String, seed: UInt64, duration: Double, pool: Int, winners: Int, minCoins: Int, maxCoins: Int
        var width: Double, height: Double, mediaStart: Double, status: String, createdAt: Int64, endedAt: Int64?
        var salt: String, commitment: String, maxAwardsPerPlayer: Int, maxCoinsPerPlayer: Int
        var minVisible: Double, tapRate: Double, players: Int, epoch: Int64

        /// The settings as version 5 keeps them, a JSON object of the rain's names.
        var settings: [String: Double] {
            ["duration": duration, "pool": Double(pool), "winners": Double(winners), "minCoins": Double(minCoins),
             "maxCoins": Double(maxCoins), "width": width, "height": height,
             "maxAwardsPerPlayer": Double(maxAwardsPerPlayer), "maxCoinsPerPlayer": Double(maxCoinsPerPlayer),
             "minVisible": minVisible, "tapRate": tapRate, "players": Double(players)]
        }
    }

    static let rains = [
        OldRain(room: "Zimmer ✨", seed: UInt64.max - 12_345, duration: 0.1 + 0.2, pool: 9_000_000_000, winners: 7, minCoins: 0,
                maxCoins: 2_147_483_648, width: 390.000_000_000_000_06, height: .greatestFiniteMagnitude, mediaStart: 1234.567_890_123_456_7,
                status: "finished", createdAt: 1_780_000_000_123, endedAt: 1_780_000_012_623,
                salt: String(repeating: "0f", count: 32), commitment: String(repeating: "c3", count: 32),
                maxAwardsPerPlayer: 15, maxCoinsPerPlayer: 161, minVisible: .leastNonzeroMagnitude, tapRate: 7.5, players: 11, epoch: 2),
        OldRain(room: "lobby", seed: 42, duration: 12.5, pool: 1000, winners: 10, minCoins: 1, maxCoins: 300, width: 390,
                height: 844, mediaStart: 3.25, status: "running", createdAt: 1_780_000_100_000, endedAt: nil, salt: "", commitment: "",
                maxAwardsPerPlayer: 0, maxCoinsPerPlayer: 0, minVisible: 0.25, tapRate: 20, players: 3, epoch: 3),
        OldRain(room: "lobby", seed: 7, duration: 20, pool: 888, winners: 27, minCoins: 8, maxCoins: 88, width: 414, height: 736,
                mediaStart: -0.5, status: "interrupted", createdAt: 1_780_000_200_000, endedAt: 1_780_000_200_001, salt: "ab",
                commitment: "cd", maxAwardsPerPlayer: 1, maxCoinsPerPlayer: 2, minVisible: 1.0 / 3.0, tapRate: 0.1, players: 0, epoch: 0),
    ]
    static let prizes: [Int64: [Int: Int]] = [1: [0: 100, 7: 1, 41: 0, 99: 898], 2: [3: 250], 3: [:]]
    /// Award 4 is inserted and deleted: the next award must still be 5 (the counter is kept).
    static let awards = [
        AwardRow(id: 1, round: 1, item: 7, player: "player-42", name: "Zoë 🎉 tail", coins: 1, x: .pi, y: -1.0 / 3.0,
                 viewTime: .leastNonzeroMagnitude, serverTime: 1e308, createdAt: Date(unixMilliseconds: 1_780_000_001_623)),
        AwardRow(id: 2, round: 1, item: 41, player: "anon-AAAAAAAAAAAAAAAAAAAAAA", name: "Guest-AAAA", coins: 0, x: 0.1, y: 0.2,
                 viewTime: 5.000_000_000_000_001, serverTime: 5.25, createdAt: Date(unixMilliseconds: 1_780_000_002_124)),
        AwardRow(id: 3, round: 2, item: 3, player: "player-42", name: "Ada", coins: 250, x: 10, y: 20, viewTime: 9.5, serverTime: 9.625,
                 createdAt: Date(unixMilliseconds: 1_780_000_110_000)),
    ]

    /// Fills a version-4 ledger through `connection`, with bound parameters (so every double is
    /// stored exactly as written).
    static func fill<C: SQLConnection>(_ connection: C, _ dialect: any SQLDialect) throws(LedgerError) {
        for rain in rains {
            try connection.run(
                """
                INSERT INTO rains (room, seed, duration, pool, winners, min_coins, max_coins, width, height, media_start, status,
                                   created_at, ended_at, salt, commitment, max_awards_per_player, max_coins_per_player,
                                   min_visible, tap_rate, players, epoch)
                VALUES (\(dialect.parameters(1...21)))
                """,
                [
                    .text(rain.room), .integer(Int64(bitPattern: rain.seed)), .real(rain.duration), .integer(Int64(rain.pool)),
                    .integer(Int64(rain.winners)), .integer(Int64(rain.minCoins)), .integer(Int64(rain.maxCoins)), .real(rain.width),
                    .real(rain.height), .real(rain.mediaStart), .text(rain.endedAt == nil ? "finished" : rain.status),
                    .integer(rain.createdAt), .integer(rain.endedAt ?? 0), .text(rain.salt), .text(rain.commitment), .integer(Int64(rain.maxAwardsPerPlayer)),
                    .integer(Int64(rain.maxCoinsPerPlayer)), .real(rain.minVisible), .real(rain.tapRate), .integer(Int64(rain.players)),
                    .integer(rain.epoch),
                ])
        }
        // A running rain is written ended at 0 (every parameter bound), then set running.
        try connection.run("UPDATE rains SET status = 'running', ended_at = NULL WHERE ended_at = 0")
        for (rain, plan) in prizes.sorted(by: { $0.key < $1.key }) {
            for (packet, coins) in plan.sorted(by: { $0.key < $1.key }) {
                try connection.run("INSERT INTO prizes (rain, packet, coins) VALUES (\(dialect.parameters(1...3)))",
                                   [.integer(rain), .integer(Int64(packet)), .integer(Int64(coins))])
            }
        }
        for award in awards + [AwardRow(round: 2, item: 5, player: "gone", name: "Gone", coins: 0, x: 0, y: 0, viewTime: 0, serverTime: 0, createdAt: startTime)] {
            try connection.run(
                """
                INSERT INTO awards (rain, packet, player, name, coins, x, y, view_time, server_time, created_at)
                VALUES (\(dialect.parameters(1...10)))
                """,
                [
                    .integer(award.round), .integer(Int64(award.item)), .text(award.player), .text(award.name), .integer(Int64(award.coins)),
                    .real(award.x), .real(award.y), .real(award.viewTime), .real(award.serverTime), .integer(award.createdAt.unixMilliseconds),
                ])
        }
        try connection.run("DELETE FROM awards WHERE player = \(dialect.parameter(1))", [.text("gone")])
        try connection.run("INSERT INTO secrets (name, value) VALUES (\(dialect.parameters(1...2)))", [.text("player-id-key"), .text("k4")])
    }

    /// What a version-5 ledger opened over `fill`'s rows must answer.
    static func expectMigrated(_ ledger: any Ledger) throws {
        for (index, old) in rains.enumerated() {
            let id = Int64(index + 1)
            let round = try #require(try ledger.round(id: id))
            #expect(round.scene == "rain" && round.room == old.room && round.seed == old.seed)
            #expect(round.salt == old.salt && round.commitment == old.commitment && round.status.rawValue == old.status)
            #expect(round.mediaStart.bitPattern == old.mediaStart.bitPattern)
            #expect(round.createdAt == Date(unixMilliseconds: old.createdAt))
            #expect(round.endedAt == old.endedAt.map(Date.init(unixMilliseconds:)))
            #expect(round.prizes == prizes[id])
            #expect(round.awards == awards.filter { $0.round == id })
            // Every setting reads back bit for bit, doubles included.
            let read = try numbers(round.settings)
            #expect(read.keys.sorted() == old.settings.keys.sorted())
            for (key, value) in old.settings {
                #expect(read[key]?.bitPattern == value.bitPattern, "\(key) of rain \(id): \(String(describing: read[key])) for \(value)")
            }
        }
        #expect(try ledger.round(id: 4) == nil)
        #expect(try ledger.runningRounds(room: "lobby") == [2])
        #expect(try ledger.claimRound(2) == 4)  // its epoch, 3, is kept
        #expect(try ledger.sharedSecret("player-id-key", candidate: "new") == "k4")
        #expect(try ledger.leaderboard(room: "lobby", limit: 5)
            == [LeaderboardEntry(rank: 1, player: "player-42", name: "Ada", coins: 250, items: 1)])
        try ledger.verify()
        // New rounds and awards go on after the old ones; an item is still awarded once.
        #expect(try ledger.beginRound(newRound()) == 4)
        #expect(try ledger.recordAward(award(round: 2, item: 0, player: "bob", coins: 5), epoch: 4).id == 5)
        #expect(throws: LedgerError.self) { try ledger.recordAward(award(round: 2, item: 3, player: "bob", coins: 5), epoch: 4) }
        #expect(try ledger.summary().schemaVersion == 5)
    }

    @Test func aVersionFourFileIsMigratedKeepingEveryRow() throws {
        try withTemporaryDirectory { directory in
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let path = directory + "/layercast.sqlite"
            let old = try SQLiteConnection(path: path)
            try old.execute(SQLiteSchema.tables)
            for migration in SQLiteSchema.migrations.prefix(3) { try old.execute(migration) }
            #expect(try old.query("PRAGMA user_version") { $0.int(0) } == [4])
            try Self.fill(old, SQLiteLedger.dialect)

            let ledger = try SQLiteLedger(directory: directory)
            #expect(try SQLiteConnection(path: path).query("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name") { $0.text(0) }
                == ["awards", "prizes", "rounds", "secrets", "sqlite_sequence"])
            try Self.expectMigrated(ledger)
            // The migrated file has what a new one has, and passes the complete check.
            #expect(try SQLiteIntegrity.missingColumns(ledger.connection) == [])
        }
    }

    @Test func aVersionFourDatabaseIsMigratedKeepingEveryRow() throws {
        let url = try PostgresTestServer.shared().newDatabase()
        let old = try PostgresConnection(url: url)
        try old.execute(PostgresSchema.tables)
        for migration in PostgresSchema.migrations.prefix(3) { try old.execute(migration) }
        try Self.fill(old, PostgresLedger.dialect)

        let ledger = try PostgresLedger(url: url, address: LedgerLocation.redacted(url))
        #expect(try old.query("SELECT version FROM layercast_schema ORDER BY version") { row throws(LedgerError) in try row.int(0) }
            == [1, 2, 3, 4, 5])
        try Self.expectMigrated(ledger)
    }
}
