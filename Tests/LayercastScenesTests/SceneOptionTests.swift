import Foundation
import LayercastEngine
import LayercastSceneAPI
import LayercastScenes
import Testing

/// Scene options: each kind's text, its rule, the environment name, and the rain's and book's
/// options read back as the flags they were before scenes declared them.
@Suite struct SceneOptionTests {
    @Test func eachKindReadsItsTextAndRefusesOthers() throws {
        let every = RainOptions.declared.first { $0.name == "rain-every" }!
        #expect(try every.value(from: "2.5").get() == .number(2.5))
        #expect(throws: SceneOptionError(option: "rain-every", problem: "must be a number ≥ 0")) { try every.value(from: "-1").get() }
        #expect(throws: SceneOptionError(option: "rain-every", problem: "must be a finite number")) { try every.value(from: "nan").get() }
        let level = SceneOption.integer("probe-level", default: 3, in: 1...9, help: "")
        #expect(try level.value(from: "9").get() == .integer(9))
        #expect(throws: SceneOptionError(option: "probe-level", problem: "must be an integer in 1…9")) { try level.value(from: "10").get() }
        #expect(throws: SceneOptionError(option: "probe-level", problem: "must be an integer")) { try level.value(from: "2.5").get() }
        let flat = BookScene.options[0]
        #expect(try flat.value(from: "yes").get() == .flag(true))
        #expect(try flat.value(from: "0").get() == .flag(false))
        #expect(throws: SceneOptionError.self) { try flat.value(from: "maybe").get() }
        #expect(flat.environmentName == "LAYERCAST_BOOK_FLAT")
        #expect(SceneOptionError(option: "rain-every", problem: "must be a number ≥ 0").description == "--rain-every must be a number ≥ 0")
    }

    @Test func optionNamesFollowTheirRule() {
        #expect(SceneOption.isValidName("rain-max-coins-per-player"))
        #expect(SceneOption.isValidName("a1"))
        for bad in ["", "Rain", "-rain", "rain-", "1rain", "rain_every", "rain every", String(repeating: "a", count: 49)] {
            #expect(!SceneOption.isValidName(bad), "\(bad)")
        }
    }

    @Test func theRainsDefaultsAreTheEmbeddedDefaults() throws {
        let values = try SceneOptionValues(for: RainScene.self, [:])
        #expect(values == SceneOptionValues(defaultsOf: RainScene.self))
        #expect(RainOptions(values) == RainOptions())
        #expect(RainOptions().everySeconds == 15)
        #expect(RainOptions().scene.size == CGSize(width: 414, height: 736))
    }

    @Test func givenTextsSetTheRainsOptions() throws {
        let values = try SceneOptionValues(for: RainScene.self, [
            "rain-every": "3", "rain-duration": "1", "rain-winners": "2", "rain-pool": "20", "rain-results": "1",
            "rain-screen": "500X800", "rain-max-awards": "4", "rain-max-coins-per-player": "auto",
        ])
        let rain = RainOptions(values)
        #expect(rain.everySeconds == 3)
        #expect(rain.defaults.duration == 1 && rain.defaults.winners == 2 && rain.defaults.pool == 20)
        #expect(rain.defaults.minCoins == 8 && rain.defaults.maxCoins == 88)
        #expect(rain.scene.resultsDuration == 1)
        #expect(rain.scene.size == CGSize(width: 500, height: 800))
        #expect(rain.maxAwardsPerPlayer == 4)
        #expect(rain.maxCoinsPerPlayer == nil)
    }

    @Test func optionsTheSceneRefusesTogetherOrDoesNotDeclareAreRefused() {
        #expect(throws: SceneOptionError(option: "", problem: "rain defaults: minCoins must be at most maxCoins (10)")) {
            try SceneOptionValues(for: RainScene.self, ["rain-min-coins": "100", "rain-max-coins": "10"])
        }
        #expect(throws: SceneOptionError(option: "book-flat", problem: "is not an option of the scene \"rain\"")) {
            try SceneOptionValues(for: RainScene.self, ["book-flat": "1"])
        }
        #expect(throws: SceneOptionError(option: "rain-screen", problem: "must be WIDTHxHEIGHT, each 100…4000 points, e.g. 414x736")) {
            try SceneOptionValues(for: RainScene.self, ["rain-screen": "99x736"])
        }
    }

    @Test func theBookIsFlatOnlyWhenAsked() throws {
        #expect(!SceneOptionValues(defaultsOf: BookScene.self).flag("book-flat"))
        #expect(try SceneOptionValues(for: BookScene.self, ["book-flat": "1"]).flag("book-flat"))
        #expect(SceneOptionValues(defaultsOf: RadarScene.self) == (try SceneOptionValues(for: RadarScene.self, [:])))
    }
}
