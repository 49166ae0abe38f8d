import APICoverage
import Foundation
import Layercast
import LayercastSceneTesting
import Testing

private let coinMiddle = CGPoint(x: 200, y: 200)
private let puckMiddle = CGPoint(x: 40, y: 360)

@Test func theCoinIsRefusedOutsideARoundAndThePuckAnswersItsTapperAlone() throws {
    let harness = SceneHarness(CoverageScene.self, seed: 1)
    #expect(harness.tap(at: coinMiddle).outcome == .refused(rule: "no-round"))
    let puck = harness.tap(at: puckMiddle, by: Tapper(client: "c2"))
    #expect(puck.outcome == .answered)
    #expect(puck.events == [SceneEvent(name: "puck", client: "c2", audience: .client)])
    #expect(harness.tap(at: CGPoint(x: 300, y: 50)).outcome == .ignored)
    #expect(harness.ledger.awards.isEmpty)
}

@Test func aDragMovesThePuckAndADropInTheCornerSaysSo() throws {
    let harness = SceneHarness(CoverageScene.self, seed: 1)
    let puck = try #require(harness.layer(named: "puck"))
    harness.drag(.began, at: puckMiddle)
    harness.drag(.moved, at: CGPoint(x: 200, y: 300), by: "c2")   // another client's drag does not move it
    harness.drag(.moved, at: CGPoint(x: 120, y: 200))
    #expect(puck.position == CGPoint(x: 120, y: 200))
    #expect(harness.drag(.ended, at: CGPoint(x: 30, y: 30)) ==
            [SceneEvent(name: "dropped", data: ["x": 30, "y": 30, "spot": "corner"], client: "c1")])
    harness.run(to: 0.1)
    #expect(harness.presentation(of: puck)?.position == CGPoint(x: 30, y: 30))   // set without animation
    // A cancelled drag puts it back where it began.
    harness.drag(.began, at: CGPoint(x: 30, y: 30))
    harness.drag(.moved, at: CGPoint(x: 300, y: 300))
    harness.drag(.cancelled, at: CGPoint(x: 300, y: 300))
    #expect(puck.position == CGPoint(x: 30, y: 30))
}

@Test func theOptionsMakeTheControllersScene() throws {
    let options = try SceneOptionValues(for: CoverageScene.self, ["coverage-coins": "7", "coverage-double": "yes"])
    #expect(CoverageScene.validationError(options) == nil)
    let controller = CoverageScene.controller(seed: 3, options: options, services: services(LaterRounds()))
    #expect((controller.stage.scene as? CoverageScene)?.coins == 14)
    // Each option's own rule, then the options together (`validationError`).
    #expect(throws: SceneOptionError(option: "coverage-greeting", problem: "must not be empty")) {
        try SceneOptionValues(for: CoverageScene.self, ["coverage-greeting": ""])
    }
    #expect(throws: SceneOptionError.self) { try SceneOptionValues(for: CoverageScene.self, ["coverage-coins": "101"]) }
    #expect(throws: SceneOptionError(option: "", problem: "--coverage-double pays at most 50 coins: lower --coverage-coins")) {
        try SceneOptionValues(for: CoverageScene.self, ["coverage-coins": "60", "coverage-double": "1"])
    }
    #expect(SceneOptionValues(defaultsOf: CoverageScene.self).number("coverage-round-seconds") == 10)
}

@Test func theCoinsImageShipsWithThePackage() throws {
    let asset = try #require(CoverageScene.info.assets.first)
    #expect(asset.url(scene: CoverageScene.info.id) == "/assets/api-coverage/coin.svg")
    guard case .resource(let path, let bundle) = asset.source else { Issue.record("not a resource"); return }
    let file = try #require(bundle.resourceURL?.appendingPathComponent(path))
    #expect(try String(contentsOf: file, encoding: .utf8).contains("<circle"))
    let harness = SceneHarness(CoverageScene.self, seed: 1)
    #expect(harness.displayList.items.first { $0.name == "coin" }?.image == "coin")
}

/// Services for a controller under test, with `rounds` and the given awarding service.
func services(_ rounds: LaterRounds, awarding: any Awarding = HarnessLedger()) -> SceneServices {
    SceneServices(awarding: awarding, rounds: rounds, logger: Logger(label: "api-coverage-tests"))
}
