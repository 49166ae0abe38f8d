import Foundation
import HeartBurst
import Layercast
import LayercastSceneTesting
import Testing

/// The 点我 button's middle in the scene: the heart view is 64 points down, the button 120 × 32
/// centred at its top.
private let button = CGPoint(x: 187.5, y: 80)

private func emitter(_ harness: SceneHarness<HeartBurstScene>) throws -> CAEmitterLayer {
    try #require(harness.layer(named: "hearts") as? CAEmitterLayer)
}

/// How many hearts are born in `after <.. through` (all live 10 s, so all are alive at `through`).
private func births(_ emitter: CAEmitterLayer, after start: CFTimeInterval, through end: CFTimeInterval) -> Int {
    emitter.particleBirths(after: start, through: end).count
}

@Test func theEmitterIsTheOriginalsSetUp() throws {
    let harness = SceneHarness(HeartBurstScene.self, seed: 1)
    let hearts = try emitter(harness)
    #expect(hearts.emitterPosition == CGPoint(x: 187.5, y: 15))     // the heart view's width / 2
    #expect(hearts.emitterSize == CGSize(width: 750, height: 0))     // twice its width
    #expect(hearts.emitterShape == .rectangle && hearts.emitterMode == .volume && hearts.renderMode == .additive)
    let cell = try #require(hearts.emitterCells?.first)
    #expect(cell.name == "heart" && cell.birthRate == 5 && cell.lifetime == 10)
    #expect(cell.alphaSpeed == Float(-0.05))                          // -0.5 / lifetime
    #expect(cell.color == CGColor(red: 0.5, green: 0, blue: 0.5, alpha: 0.5))
    #expect(cell.contents == CGImage(named: "DazHeart", width: 64, height: 64))
    // The page draws the emitter adding light (protocol.md's `rm`).
    harness.run(to: 1)
    #expect(harness.displayList.items.first { $0.name == "hearts" }?.renderMode == "additive")
}

@Test func heartsAreBornFiveASecondEachWithTheCellsValues() throws {
    let harness = SceneHarness(HeartBurstScene.self, seed: 1)
    let hearts = try emitter(harness)
    harness.run(to: 2)
    let born = hearts.particleBirths(after: 0, through: 2)
    // Evenly spaced at the cell's rate (engine-model.md §9.2): 0.2, 0.4 … 2.0.
    #expect(born.count == 10)
    for (k, heart) in born.enumerated() {
        #expect(abs(heart.birthTime - Double(k + 1) / 5) < 1e-9)
        // On the 750 × 0 rectangle about (187.5, 15), volume: uniform on the line y = 15.
        #expect(heart.origin.y == 15 && (-187.5...562.5).contains(heart.origin.x) && heart.origin.z == 0)
        // Speed −10 ± 5 along a direction within π/2 of straight down: they rise, 5 to 15 points a second.
        let speed = (heart.velocity * heart.velocity).sum().squareRoot()
        #expect((5...15).contains(speed) && heart.velocity.y <= 0)
        #expect(heart.acceleration == SIMD3(0, 2, 0) && heart.lifetime == 10)
        #expect(abs(heart.scale - 0.15) < 1e-7 && abs(heart.scaleSpeed - 0.5) < 1e-12)
        // Colour (0.5, 0, 0.5, 0.5) with red and blue ± 0.15; alpha fades 0.05 a second.
        #expect((0.35...0.65).contains(heart.color.x) && heart.color.y == 0 && (0.35...0.65).contains(heart.color.z))
        #expect(heart.color.w == 0.5 && abs(heart.colorSpeed.w + 0.05) < 1e-7)
    }
    // The page is sent the records of those it can show: every heart born well inside the 375-point
    // width, none that was not born (the rest, born off screen and never on it, are not sent).
    // Records carry the birth time to 1e-3 s: the tenths of a second here name the hearts.
    let sent = Set(try #require(harness.displayList.items.first { $0.name == "hearts" }).births.records.map { Int(($0.birth * 10).rounded()) })
    let inside = Set(born.filter { (20...355).contains($0.origin.x) }.map { Int(($0.birthTime * 10).rounded()) })
    #expect(!inside.isEmpty && inside.isSubset(of: sent) && sent.isSubset(of: Set(born.map { Int(($0.birthTime * 10).rounded()) })))
}

@Test func theButtonBurstsHeartsAt150ASecondEasingToNoneIn5Seconds() throws {
    let harness = SceneHarness(HeartBurstScene.self, seed: 1)
    let hearts = try emitter(harness)
    harness.run(to: 1)
    let result = harness.tap(at: button, by: Tapper(client: "c2"))
    #expect(result.outcome == .answered)
    #expect(result.events == [SceneEvent(name: "burst", client: "c2")])
    harness.run(to: 8.1)
    // The animation's birthRate runs linearly 150 → 0 over 1 … 6, in place of the cell's 5:
    // ∫₀^0.5 (150 − 30t) dt = 71.25 hearts by 1.5, after the 5 born by 1: N(1.5) = 76.25.
    #expect(births(hearts, after: 1, through: 1.5) == 71)
    // The whole burst is 150·5/2 = 375 hearts, then the cell's own 5 a second (0.1 s of it by 6.1).
    #expect(births(hearts, after: 1, through: 6.1) == 375)
    // Removed on completion: the birth rate after the animation is the model's 5 a second again.
    #expect(births(hearts, after: 6.1, through: 8.1) == 10)
    #expect(hearts.emitterCells?.first?.birthRate == 5)
}

@Test func aTapBesideTheButtonBurstsNothing() throws {
    let harness = SceneHarness(HeartBurstScene.self, seed: 1)
    let hearts = try emitter(harness)
    harness.run(to: 1)
    let result = harness.tap(at: CGPoint(x: 60, y: 80))   // left of the button, on the heart view
    #expect(result.outcome == .ignored && result.events.isEmpty)
    harness.run(to: 3.1)
    #expect(births(hearts, after: 1, through: 3.1) == 10)
}

@Test func theHeartImageShipsWithThePackage() throws {
    let asset = try #require(HeartBurstScene.info.assets.first)
    #expect(asset.id == "DazHeart" && asset.url(scene: "heart-burst") == "/assets/heart-burst/heart.svg")
    guard case .resource(let path, let bundle) = asset.source else { Issue.record("not a resource"); return }
    let file = try #require(bundle.resourceURL?.appendingPathComponent(path))
    #expect(try String(contentsOf: file, encoding: .utf8).contains("<svg"))
}
