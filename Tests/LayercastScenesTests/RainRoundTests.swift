import Foundation
import LayercastEngine
import Testing
@testable import LayercastSceneAPI
@testable import LayercastScenes

/// A rain as a round of the scene `rain`: the settings JSON it records and reads back, and the
/// round it becomes.
@Suite struct RainRoundTests {
    static let odd = RainRoundSettings(
        duration: 0.1 + 0.2, pool: 9_000_000_000, winners: 7, minCoins: 0, maxCoins: 2_147_483_648,
        width: 390.000_000_000_000_06, height: .greatestFiniteMagnitude, maxAwardsPerPlayer: 15, maxCoinsPerPlayer: 161,
        minVisible: .leastNonzeroMagnitude, tapRate: 7.5, players: 11)

    @Test func settingsReadBackBitForBit() throws {
        let read = try #require(RainRoundSettings(json: Self.odd.json))
        #expect(read == Self.odd)
        let written = [Self.odd.duration, Self.odd.width, Self.odd.height, Self.odd.minVisible, Self.odd.tapRate]
        #expect([read.duration, read.width, read.height, read.minVisible, read.tapRate].map(\.bitPattern) == written.map(\.bitPattern))
        #expect(RainRoundSettings(duration: 12.5, pool: 1000, winners: 10, minCoins: 1, maxCoins: 300, width: 390, height: 844).json
            == #"{"duration":12.5,"pool":1000,"winners":10,"minCoins":1,"maxCoins":300,"width":390.0,"height":844.0,"#
            + #""maxAwardsPerPlayer":0,"maxCoinsPerPlayer":0,"minVisible":0.0,"tapRate":20.0,"players":0}"#)
    }

    /// What ledger schema 5's migration writes for a rain of version 4 (SQLite: 21 significant
    /// digits; PostgreSQL: spaces around the colons) reads as the same settings.
    @Test func theMigrationsTextReadsAsTheSameSettings() throws {
        let sqlite = #"{"duration":3.00000000000000044409e-01,"pool":1000,"winners":10,"minCoins":1,"maxCoins":300,"width":390.0,"#
            + #""height":844.5,"maxAwardsPerPlayer":0,"maxCoinsPerPlayer":0,"minVisible":0.0,"tapRate":20.0,"players":3}"#
        let postgres = #"{"duration" : 0.30000000000000004, "pool" : 1000, "winners" : 10, "minCoins" : 1, "maxCoins" : 300, "#
            + #""width" : 390, "height" : 844.5, "maxAwardsPerPlayer" : 0, "maxCoinsPerPlayer" : 0, "minVisible" : 0, "tapRate" : 20, "players" : 3}"#
        let expected = RainRoundSettings(duration: 0.1 + 0.2, pool: 1000, winners: 10, minCoins: 1, maxCoins: 300, width: 390,
                                         height: 844.5, tapRate: 20, players: 3)
        #expect(RainRoundSettings(json: sqlite) == expected)
        #expect(RainRoundSettings(json: postgres) == expected)
    }

    @Test func settingsThatAreNotARainsReadAsNil() {
        #expect(RainRoundSettings(json: "") == nil)
        #expect(RainRoundSettings(json: "[1, 2]") == nil)
        #expect(RainRoundSettings(json: #"{"duration": 20}"#) == nil)  // members missing
        #expect(RainRoundSettings(json: Self.odd.json.replacingOccurrences(of: #""pool":9000000000"#, with: #""pool":1.5"#)) == nil)
    }

    @Test func aRainStartIsARoundOfTheRain() throws {
        var settings = RainSettings(duration: 8, pool: 100, winners: 12, minCoins: 1, maxCoins: 30, seed: 77)
        settings.salt = Array(0..<32)
        let size = CGSize(width: 414, height: 736)
        let start = RainStart(room: "lobby", settings: settings, commitment: RainCommitment(settings: settings, size: size),
                              plan: PrizePlan(settings: settings), size: size, players: 4, mediaStart: 5.5)
        let round = start.round
        #expect(round.scene == "rain" && round.room == "lobby" && round.seed == 77 && round.mediaStart == 5.5)
        #expect(round.salt == RainCommitment.hex(settings.salt) && round.commitment == start.commitment.digest)
        #expect(round.prizes == start.plan.prizes && round.prizes.values.reduce(0, +) == 100)
        #expect(RainRoundSettings(json: round.settings) == RainRoundSettings(start))

        // Read back as recorded, with one award: the same settings, screen and tap.
        let award = RecordedAward(id: 9, item: 3, coins: 7, player: "p1", name: "Ann", point: CGPoint(x: 10, y: 20),
                                  viewTime: 6.25, serverTime: 6.5)
        var recorded = RecordedRound(id: 4, scene: round.scene, room: round.room, seed: round.seed, salt: round.salt,
                                     commitment: round.commitment, settings: round.settings, mediaStart: round.mediaStart,
                                     prizes: round.prizes, awards: [award])
        let rain = RecordedRain(recorded)
        #expect(rain.id == 4 && rain.settings == settings && rain.size == size && rain.mediaStart == 5.5)
        #expect(rain.awards.map(\.tap) == [RainReplay.Tap(player: "p1", name: "Ann", point: CGPoint(x: 10, y: 20), viewTime: 6.25, serverTime: 6.5)])
        #expect(rain.awards.map(\.outcome) == [RainReplay.Outcome(packet: 3, coins: 7, player: "p1")])

        // Another scene's round, or one whose salt is not hex, has no rain settings to go on with.
        recorded.scene = "cards"
        #expect(RecordedRain(recorded).settings == nil)
        recorded.scene = "rain"
        recorded.salt = "not hex"
        #expect(RecordedRain(recorded).settings == nil)
    }

    @Test func theRainIsItsScenesRoundAuditor() throws {
        let auditor = try #require(RainScene.roundAuditor)
        #expect(ObjectIdentifier(auditor) == ObjectIdentifier(RainAudit.self))
        #expect(SceneCatalog.all.filter { $0.roundAuditor != nil }.map { $0.info.id } == ["rain"])
        let round = RecordedRound(id: 1, scene: "rain", room: "r", seed: 1, salt: "", commitment: "", settings: "{}",
                                  mediaStart: 0, prizes: [:], awards: [])
        #expect(RainAudit.differences(round) == ["settings: {} is not a rain's"])
        #expect(RainAudit.pool(round) == 0 && RainAudit.document(round) == [:])
    }
}
