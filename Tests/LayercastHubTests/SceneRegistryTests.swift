@testable import LayercastHub
import Foundation
import LayercastEngine
import LayercastJSON
import LayercastSceneAPI
import LayercastScenes
import LayercastWire
import Testing

/// The hub runs the scenes it was given: joins, `/api/scenes`, tap rules and admin commands read
/// its `SceneRegistry`, which refuses duplicate and malformed ids at start.
@Suite struct SceneRegistryTests {
    /// A scene of someone else's package: it takes `stop-rain` too, and answers it as itself.
    final class ProbeScene: Scene {
        static var info: SceneInfo {
            SceneInfo(id: "probe", title: "Probe", size: CGSize(width: 100, height: 80), interactions: ["tap"], assets: [])
        }
        static var commands: [String] { ["stop-rain"] }
        static var tapRules: [String] { ["probe_rule", "too_soon"] }
        static var options: [SceneOption] { [.integer("probe-level", default: 3, in: 1...9, help: "How loud the probe is.")] }
        static func controller(seed: UInt64, options: SceneOptionValues, services: SceneServices) -> any SceneController {
            ProbeController(stage: SceneStage { ProbeScene(seed: seed) })
        }
        let layer = CALayer()
        init(seed: UInt64) { layer.bounds = CGRect(x: 0, y: 0, width: 100, height: 80) }
        func tap(_ hit: CALayer?, at point: CGPoint, time: CFTimeInterval, by tapper: Tapper) -> TapOutcome { .ignored }
        func takeEvents() -> [SceneEvent] { [] }
    }

    final class ProbeController: SceneController {
        let stage: SceneStage
        let awarding: any Awarding = NoAwards()
        init(stage: SceneStage) { self.stage = stage }
        func perform(_ command: String, body: [UInt8], in room: any ControlledRoom) -> Result<CommandAnswer, APIError> {
            .success(CommandAnswer(["scene": "probe", "command": .string(command)]))
        }
    }

    final class Renamed: Scene {
        static var info: SceneInfo { SceneInfo(id: "radar", title: "Another radar", size: .zero, interactions: [], assets: []) }
        let layer = CALayer()
        init(seed: UInt64) {}
        func tap(_ hit: CALayer?, at point: CGPoint, time: CFTimeInterval, by tapper: Tapper) -> TapOutcome { .ignored }
        func takeEvents() -> [SceneEvent] { [] }
    }

    final class Spaced: Scene {
        static var info: SceneInfo { SceneInfo(id: "my scene", title: "Spaced", size: .zero, interactions: [], assets: []) }
        let layer = CALayer()
        init(seed: UInt64) {}
        func tap(_ hit: CALayer?, at point: CGPoint, time: CFTimeInterval, by tapper: Tapper) -> TapOutcome { .ignored }
        func takeEvents() -> [SceneEvent] { [] }
    }

    /// A scene whose flags are named `names`.
    class OptionProbe: Scene {
        class var names: [String] { [] }
        class var info: SceneInfo { SceneInfo(id: "options", title: "Options", size: .zero, interactions: [], assets: []) }
        class var options: [SceneOption] { names.map { .flag($0, help: "A flag.") } }
        let layer = CALayer()
        required init(seed: UInt64) {}
        func tap(_ hit: CALayer?, at point: CGPoint, time: CFTimeInterval, by tapper: Tapper) -> TapOutcome { .ignored }
        func takeEvents() -> [SceneEvent] { [] }
    }
    /// Declares the book's option as its own.
    final class Borrower: OptionProbe { override class var names: [String] { ["book-flat"] } }
    final class Shouter: OptionProbe { override class var names: [String] { ["Loud"] } }
    final class Stutterer: OptionProbe { override class var names: [String] { ["loud", "loud"] } }

    @Test func optionsWithAnotherOptionsNameOrAMalformedNameAreRefused() throws {
        #expect(throws: SceneRegistryError.duplicateOption(scene: "options", "book-flat")) {
            try SceneRegistry([BookScene.self, Borrower.self])
        }
        #expect(throws: SceneRegistryError.badOption(scene: "options", "Loud")) { try SceneRegistry([Shouter.self]) }
        #expect(throws: SceneRegistryError.duplicateOption(scene: "options", "loud")) { try SceneRegistry([Stutterer.self]) }
        #expect(try SceneRegistry([ProbeScene.self, Borrower.self]).scenes.count == 2)
    }

    @Test func duplicateAndMalformedIDsAreRefusedWithTheirName() {
        #expect(throws: SceneRegistryError.duplicateID("radar")) { try SceneRegistry([RadarScene.self, Renamed.self]) }
        #expect(throws: SceneRegistryError.badID("my scene")) { try SceneRegistry([Spaced.self]) }
        #expect(SceneRegistryError.duplicateID("radar").description
            == "two scenes have the id \"radar\": each scene's SceneInfo.id must be its own")
    }

    @Test func theRegistryKeepsItsOrderAndEachScenesTapRules() throws {
        let registry = try SceneRegistry([RainScene.self, ProbeScene.self])
        #expect(registry.scenes.map { $0.info.id } == ["rain", "probe"])
        #expect(registry.scene(id: "probe") == ProbeScene.self && registry.scene(id: "radar") == nil)
        #expect(registry.scenes(taking: "stop-rain").map { $0.info.id } == ["rain", "probe"])
        #expect(registry.tapRules.map(\.scene) == ["rain", "probe"])
        #expect(registry.tapRules.map(\.rules) == [RainScene.tapRules, ProbeScene.tapRules])
    }

    @Test func aHubServesOnlyTheScenesItWasGiven() throws {
        let h = HubHarness(scenes: try SceneRegistry([ProbeScene.self, RadarScene.self]))
        let ids = h.hub.scenesDocument()["scenes"]?.arrayValue?.compactMap { $0["id"]?.stringValue }
        #expect(ids == ["probe", "radar"])
        let book = h.join(["scene": "book", "role": "spectator"])
        #expect(h.messages(book).first?["code"]?.stringValue == "unknown_scene")
        let probe = h.join(["scene": "probe", "role": "spectator"])
        let welcome = try #require(h.messages(probe).first)
        #expect(welcome["type"]?.stringValue == "welcome" && welcome["scene"]?.stringValue == "probe")
    }

    @Test func theCatalogueCarriesEachScenesWords() throws {
        let h = HubHarness(scenes: try SceneRegistry([ProbeScene.self, RainScene.self, BookScene.self]))
        let scenes = try #require(h.hub.scenesDocument()["scenes"]?.arrayValue)
        // The probe has no words: no word fields at all.
        #expect(scenes[0].objectValue?.keys == ["id", "title", "size", "interactions"])
        // The rain has its own page; the book its events and its books' titles.
        #expect(scenes[1]["page"]?.stringValue == "rain.html")
        #expect(scenes[1]["summary"]?["zh"]?.stringValue == "红包雨开始后,点落下的红包赢金币。")
        #expect(scenes[2]["page"] == nil)
        let opened = scenes[2]["events"]?.arrayValue?.first { $0["event"]?.stringValue == "opened" }
        #expect(opened == ["event": "opened", "when": [:], "en": "Reading 《{book}》", "zh": "正在阅读《{book}》"])
        #expect(scenes[2]["terms"]?["dracula"] == ["en": "Dracula", "zh": "德古拉"])
        #expect(scenes[2]["terms"]?.objectValue?.keys == BookScene.books.map(\.slug).sorted())
    }

    @Test func aCommandGoesToTheScenesOfTheRoomItNames() throws {
        let h = HubHarness(scenes: try SceneRegistry([RainScene.self, ProbeScene.self]))
        // No room "den" is open: the first scene that takes the command has it (the rain: no rain runs).
        let closed = h.hub.perform(command: "stop-rain", room: "den", body: [], authorization: "Bearer \(HubHarness.adminToken)", oversize: false)
        #expect(closed.failure?.code == .noRain)
        // The probe's room "hall" is open: the command is the probe's.
        _ = h.join(["scene": "probe", "room": "hall", "role": "spectator"])
        let answer = try h.hub.perform(command: "stop-rain", room: "hall", body: [], authorization: "Bearer \(HubHarness.adminToken)",
                                       oversize: false).get()
        #expect(answer.document == ["scene": "probe", "command": "stop-rain"])
        // A command no registered scene takes is not found.
        let snow = h.hub.perform(command: "snow", room: "hall", body: [], authorization: "Bearer \(HubHarness.adminToken)", oversize: false)
        #expect(snow.failure?.status == 404)
    }
}

extension Result {
    var failure: Failure? { if case .failure(let error) = self { error } else { nil } }
}
