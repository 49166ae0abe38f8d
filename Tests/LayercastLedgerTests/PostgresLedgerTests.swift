import Foundation
import Testing
@testable import LayercastLedger

/// What only the PostgreSQL ledger has: its schema table and migrations, its constraint checks,
/// exactly-once across connections, text without NUL and a connection that comes back.
@Suite struct PostgresLedgerTests {
    /// A new, empty database: its URL and the address messages name it by.
    func database() throws -> (url: String, address: String) {
        let url = try PostgresTestServer.shared().newDatabase()
        return (url, LedgerLocation.redacted(url))
    }

    func versions(_ url: String) throws -> [Int] {
        try PostgresConnection(url: url).query("SELECT version FROM layercast_schema ORDER BY version") { row throws(LedgerError) in
            try row.int(0)
        }
    }

    @Test func aNewDatabaseGetsEveryVersionCommitsSynchronouslyAndVerifies() throws {
        let (url, address) = try database()
        let ledger = try PostgresLedger(url: url, address: address)
        #expect(try versions(url) == [1, 2, 3, 4, 5])
        #expect(PostgresSchema.version == SQLiteSchema.version)
        #expect(try ledger.connection.query("SHOW synchronous_commit") { $0.text(0) } == ["on"])
        let id = try ledger.beginRound(newRound())
        _ = try ledger.recordAward(award(round: id, item: 3, player: "ada", coins: 250))
        try ledger.verify()
        #expect(try ledger.summary() == LedgerSummary(schemaVersion: 5, rounds: 1, awards: 1, coins: 250))
        // Opening again finds the current version and adds nothing.
        _ = try PostgresLedger(url: url, address: address)
        #expect(try versions(url) == [1, 2, 3, 4, 5])
    }

    @Test func aVersionOneDatabaseIsMigratedKeepingEveryRainAndAward() throws {
        let (url, address) = try database()
        let old = try PostgresConnection(url: url)
        try old.execute(PostgresSchema.tables)
        try old.execute("""
            INSERT INTO rains (room, seed, duration, pool, winners, min_coins, max_coins, width, height, media_start,
                               status, created_at, ended_at)
            VALUES ('campaign', 7, 20, 888, 27, 8, 88, 414, 736, 3.5, 'finished', 1780000000000, 1780000030000);
            INSERT INTO prizes (rain, packet, coins) VALUES (1, 4, 37);
            INSERT INTO awards (rain, packet, player, name, coins, x, y, view_time, server_time, created_at)
            VALUES (1, 4, 'player-42', 'Ada', 37, 10, 20, 9.5, 9.6, 1780000010000);
            """)
        #expect(try versions(url) == [1])

        let ledger = try PostgresLedger(url: url, address: address)
        #expect(try versions(url) == [1, 2, 3, 4, 5])
        let rain = try #require(try ledger.round(id: 1))
        // A version-1 rain had no salt, no commitment and no limits: no on-screen rule, 20 taps/s.
        #expect(rain.salt == "" && rain.commitment == "" && rain.seed == 7 && rain.status == .finished)
        #expect(rain.scene == "rain")
        #expect(try numbers(rain.settings) == ["duration": 20, "pool": 888, "winners": 27, "minCoins": 8, "maxCoins": 88,
                                               "width": 414, "height": 736, "maxAwardsPerPlayer": 0, "maxCoinsPerPlayer": 0,
                                               "minVisible": 0, "tapRate": 20, "players": 0])
        #expect(rain.prizes == [4: 37] && rain.awards.map(\.coins) == [37] && rain.awards.map(\.name) == ["Ada"])
        // The migrated ledger takes new rains after the old ones, and its constraint still holds.
        let next = try ledger.beginRound(newRound())
        #expect(next == 2)
        _ = try ledger.recordAward(award(round: next, item: 0, player: "player-42", coins: 100))
        #expect(try ledger.totalCoins(player: "player-42") == 137)
        #expect(throws: LedgerError.self) { try ledger.recordAward(award(round: next, item: 0, player: "bob", coins: 1)) }
        _ = try PostgresLedger(url: url, address: address)
        #expect(try ledger.round(id: 1) == rain)
    }

    @Test func aNewerSchemaVersionIsRefused() throws {
        let (url, address) = try database()
        _ = try PostgresLedger(url: url, address: address)
        try PostgresConnection(url: url).execute("INSERT INTO layercast_schema (version, applied_at) VALUES (6, 0)")
        let error = try #require(throws: LedgerError.self) { try PostgresLedger(url: url, address: address) }
        #expect(error == LedgerError(.schema, "\(address) has ledger schema version 6; this build knows only version 5 (is it newer?)"))
    }

    @Test func tablesOfAnotherApplicationAreRefusedAndLeftUnchanged() throws {
        let (url, address) = try database()
        try PostgresConnection(url: url).execute("CREATE TABLE awards (note text); INSERT INTO awards VALUES ('theirs')")
        let error = try #require(throws: LedgerError.self) { try PostgresLedger(url: url, address: address) }
        #expect(error == LedgerError(
            .schema, "\(address) has tables awards but no layercast_schema: it is not a Layercast ledger; left unchanged"))
        let connection = try PostgresConnection(url: url)
        #expect(try connection.query("SELECT note FROM awards") { $0.text(0) } == ["theirs"])
        #expect(try connection.query("SELECT to_regclass('layercast_schema') IS NULL") { $0.text(0) } == ["t"])
    }

    @Test(arguments: [
        ("ALTER TABLE awards DROP CONSTRAINT awards_once", "awards lack the constraint awards_once UNIQUE (round, item)"),
        ("ALTER TABLE awards DROP COLUMN view_time", "column \"view_time\" does not exist"),
    ])
    func aDamagedSchemaIsCorrupt(damage: String, named: String) throws {
        let (url, address) = try database()
        let ledger = try PostgresLedger(url: url, address: address)
        try PostgresConnection(url: url).execute(damage)
        let error = try #require(throws: LedgerError.self) { try PostgresLedger(url: url, address: address) }
        #expect(error.code == .corrupt && error.message.contains(named) && error.message.contains(address), "\(error)")
        #expect(throws: error) { try ledger.verify() }
    }

    @Test func textHoldingNULIsRefusedWithoutAChange() throws {
        let (url, address) = try database()
        let ledger = try PostgresLedger(url: url, address: address)
        let id = try ledger.beginRound(newRound())
        let error = try #require(throws: LedgerError.self) {
            try ledger.recordAward(award(round: id, item: 0, player: "alice", name: "Al\u{0}ice", coins: 100))
        }
        #expect(error.code == .invalid && error.message.contains("holds a NUL character"), "\(error)")
        #expect(try ledger.round(id: id)?.awards == [])
    }

    /// Four connections (as four nodes) race to claim the same 20 packets: the database's
    /// constraint gives each packet to exactly one of them, and every other claim is `duplicate`.
    @Test func nodesRacingForThePacketsAwardEachOnce() throws {
        let (url, address) = try database()
        let id = try PostgresLedger(url: url, address: address).beginRound(newRound(prizes: [:]))
        let tally = Tally()
        DispatchQueue.concurrentPerform(iterations: 4) { node in
            tally.claim(packets: 0..<20, of: id, as: "node-\(node)", url: url, address: address)
        }
        let (winners, duplicates, failures) = tally.result
        #expect(failures == [])
        #expect(winners.keys.sorted() == Array(0..<20) && winners.values.allSatisfy { $0.count == 1 })
        #expect(duplicates == 20 * 3)
        let awards = try #require(try PostgresLedger(url: url, address: address).round(id: id)).awards
        #expect(awards.count == 20)
        #expect(Dictionary(uniqueKeysWithValues: awards.map { ($0.item, [$0.player]) }) == winners)
    }

    /// Another node ending the rain closes it to every node: the award after it is `notFound`.
    @Test func aRainEndedByAnotherNodeTakesNoAward() throws {
        let (url, address) = try database()
        let first = try PostgresLedger(url: url, address: address), second = try PostgresLedger(url: url, address: address)
        let id = try first.beginRound(newRound())
        _ = try second.recordAward(award(round: id, item: 0, player: "alice", coins: 100))
        try first.endRound(id, status: .finished, at: startTime.addingTimeInterval(20))
        #expect(throws: LedgerError(.notFound, "record award of item 3 in round \(id): round \(id) is finished, not running")) {
            try second.recordAward(award(round: id, item: 3, player: "bob", coins: 250))
        }
        #expect(try first.round(id: id)?.awards.map(\.player) == ["alice"])
    }

    /// A connection the server dropped fails the call that finds out, and the next call reconnects.
    @Test func aDroppedConnectionIsReestablished() throws {
        let (url, address) = try database()
        let ledger = try PostgresLedger(url: url, address: address)
        let id = try ledger.beginRound(newRound())
        _ = try ledger.recordAward(award(round: id, item: 0, player: "alice", coins: 100))
        let pid = try ledger.connection.query("SELECT pg_backend_pid()") { $0.text(0) }[0]
        try PostgresConnection(url: url).run("SELECT pg_terminate_backend($1::int, 5000)", [.text(pid)])
        let lost = try #require(throws: LedgerError.self) { try ledger.totalCoins(player: "alice") }
        #expect(lost.code == .io, "\(lost)")
        #expect(try ledger.totalCoins(player: "alice") == 100)
        // The new session is set up as the first was.
        #expect(try ledger.connection.query("SHOW lock_timeout") { $0.text(0) } == ["5s"])
        #expect(try ledger.connection.query("SHOW synchronous_commit") { $0.text(0) } == ["on"])
        _ = try ledger.recordAward(award(round: id, item: 3, player: "alice", coins: 250))
        #expect(try ledger.totalCoins(player: "alice") == 350)
    }

    /// The lock is the session's: a re-established session takes it again, and loses the call
    /// that finds another process took it meanwhile.
    @Test func aReestablishedSessionTakesItsLockAgain() throws {
        let (url, address) = try database()
        let node = try PostgresLedger(url: url, address: address)
        try node.lock(.clusterNode)
        func dropSession() throws {
            let pid = try node.connection.query("SELECT pg_backend_pid()") { $0.text(0) }[0]
            try PostgresConnection(url: url).run("SELECT pg_terminate_backend($1::int, 5000)", [.text(pid)])
            #expect(throws: LedgerError.self) { try node.totalCoins(player: "alice") }
        }
        try dropSession()
        #expect(try node.totalCoins(player: "alice") == 0)
        let standalone = try PostgresLedger(url: url, address: address)
        #expect(throws: LedgerError.self) { try standalone.lock(.soleWriter) }  // the node has it again

        try dropSession()
        try standalone.lock(.soleWriter)  // while the node is away
        let lost = try #require(throws: LedgerError.self) { try node.totalCoins(player: "alice") }
        #expect(lost.code == .inUse, "\(lost)")
        #expect(lost.message.contains("another process now holds the ledger's lock"))
    }
}

/// What the racing nodes won, collected across threads.
private final class Tally: @unchecked Sendable {
    private let lock = NSLock()
    private var winners: [Int: [String]] = [:]
    private var duplicates = 0
    private var failures: [String] = []

    /// Claims each of `packets` through a connection of its own, counting wins and duplicates.
    func claim(packets: Range<Int>, of rain: Int64, as player: String, url: String, address: String) {
        let ledger: PostgresLedger
        do {
            ledger = try PostgresLedger(url: url, address: address)
        } catch {
            return lock.withLock { failures.append("\(error)") }
        }
        for packet in packets {
            let won: Bool
            do {
                _ = try ledger.recordAward(award(round: rain, item: packet, player: player, coins: 1))
                won = true
            } catch {
                guard error.code == .duplicate else { return lock.withLock { failures.append("\(error)") } }
                won = false
            }
            lock.withLock {
                if won { winners[packet, default: []].append(player) } else { duplicates += 1 }
            }
        }
    }

    var result: (winners: [Int: [String]], duplicates: Int, failures: [String]) {
        lock.withLock { (winners, duplicates, failures) }
    }
}
