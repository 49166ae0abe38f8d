import Foundation
import LayercastEngine
@testable import LayercastSceneAPI
import LayercastSceneTesting
import Testing
@testable import LayercastScenes

/// The snowfall under the harness (a room's clock and frames). Particles are a pure function of
/// time, so these tests need no room frame rate: one frame a second spares building thousands of
/// particle frames nobody reads.
private func snow(seed: UInt64 = 1, settings: SnowSettings = SnowSettings(), start: SnowScene.Start = .top) -> SceneHarness<SnowScene> {
    SceneHarness(fps: 1) { SnowScene(seed: seed, settings: settings, start: start) }
}

private extension SceneHarness where S == SnowScene {
    /// Particles of `layer` at media time `t`, after running to `t`.
    func particles(_ layer: CAEmitterLayer, at t: CFTimeInterval) -> [EmitterParticle] {
        run(to: t)
        return stage.run { layer.particles(at: layer.localTime(atMedia: t)) }
    }

    /// Particles of both layers born in (from, to] of media time, seen at `to`.
    func births(from: CFTimeInterval, to: CFTimeInterval) -> Int {
        [scene.flakeLayer, scene.containerLayer].reduce(0) { total, layer in
            let local = stage.run { layer.localTime(atMedia: from) }
            return total + particles(layer, at: to).filter { $0.birthTime > local }.count
        }
    }
}

// The snowfall (docs/scenes.md §3): the seed's set-ups, exact rates, the warm start and admin changes.
@Suite struct SnowSceneTests {
    @Test func imagesShipWithTheScene() {
        #expect(AssetRow.rows(SnowScene.info) == [
            AssetRow(id: "snowflake", url: "/assets/snow/snowflake.svg", width: 32, height: 32),
            AssetRow(id: "snowflake-star", url: "/assets/snow/snowflake-star.svg", width: 32, height: 32),
            AssetRow(id: "petal", url: "/assets/snow/petal.svg", width: 24, height: 32),
        ])
        #expect(AssetRow.notShipped(SnowScene.info) == [])
    }

    @Test func aFreshRoomStartsAtTheTop() {
        let harness = snow()
        // docs/scenes.md §3, problem 1: at 0.3 s only the first 3 flakes (10/s) exist, all still
        // within a few points of the line y = −10 above the screen; none is on screen yet.
        let early = harness.particles(harness.scene.flakeLayer, at: 0.3)
        #expect(early.count == 3)
        #expect(early.allSatisfy { $0.position.y < -5 })
        // At 20 s the first flakes have fallen past the bottom (736): the whole height is snowing.
        let later = harness.particles(harness.scene.flakeLayer, at: 20)
        #expect(abs(later.count - 200) <= 2)
        let onScreen = later.filter { $0.position.y >= 0 && $0.position.y <= 736 }.map(\.position.y)
        #expect(onScreen.contains { $0 < 184 })
        #expect(onScreen.contains { $0 > 552 })
    }

    @Test func warmStartBeginsAtTheSteadyState() {
        let harness = snow(start: .steady)
        // Rate 10 × lifetime 120 (± 0.25, mean 120) = 1 200 alive at media time 0 already.
        let count = harness.particles(harness.scene.flakeLayer, at: 0).count
        #expect(abs(Double(count) - 1_200) <= 120)
        let later = harness.particles(harness.scene.flakeLayer, at: 30).count
        #expect(abs(Double(later) - 1_200) <= 120)
    }

    @Test func exactModeEmitsTheRate() {
        let harness = snow(settings: SnowSettings(images: ["snowflake", "petal"], rate: 7, mode: .exact))
        // Exact: 7 per second over two images, 3.5 each; over 10 s, 70 (± 1 per cell for phase).
        #expect(abs(harness.births(from: 10, to: 20) - 70) <= 2)
    }

    @Test func demoModeIsTheSeedsSevenPerSecond() {
        let harness = snow(settings: SnowSettings(images: ["snowflake"], rate: 2, mode: .demo))
        // The seed's problem 2: 10 containers/s × 0.35 s × 2/s = 7 per second.
        #expect(SnowSettings(images: ["snowflake"], rate: 2, mode: .demo).emittedRate == 7)
        let births = harness.births(from: 10, to: 30)
        #expect(abs(Double(births) - 140) <= 14)
    }

    @Test func containerModeIsTheSeedsPiecewiseFix() {
        // q < 5: container (q, 1.1/q), cell q → 1.1 q; q ≥ 10: 10 × 0.25 × q/2.25 = 1.111… q.
        #expect(SnowSettings(rate: 4, mode: .container).emittedRate == 4.4)
        #expect(abs(SnowSettings(rate: 20, mode: .container).emittedRate - 22.222222) < 1e-5)
        let harness = snow(settings: SnowSettings(rate: 4, mode: .container))
        let births = harness.births(from: 10, to: 30)
        #expect(abs(Double(births) - 88) <= 9)
    }

    @Test func imagesSwitchOnlyForNewParticles() {
        let harness = snow()
        let before = harness.particles(harness.scene.flakeLayer, at: 5)
        harness.stage.run { _ = harness.scene.setSnow(SnowSettings(images: ["petal"], rate: 10)) }
        let after = harness.particles(harness.scene.flakeLayer, at: 8)
        let local5 = harness.stage.run { harness.scene.flakeLayer.localTime(atMedia: 5) }
        // Everything born before the change is still a snowflake and still there; everything after is a petal.
        let old = after.filter { $0.birthTime <= local5 }
        #expect(old.allSatisfy { $0.contents.name == "snowflake" })
        #expect(Set(before.map(\.id)).isSuperset(of: old.map(\.id)))
        let new = after.filter { $0.birthTime > local5 }
        #expect(new.allSatisfy { $0.contents.name == "petal" })
        // 10 per second for 3 s.
        #expect(abs(new.count - 30) <= 1)
    }

    @Test func refusedSettingsChangeNothing() {
        let harness = snow()
        let refused = harness.stage.run { harness.scene.setSnow(SnowSettings(images: ["rain"], rate: 5)) }
        #expect(!refused)
        #expect(harness.scene.settings == SnowSettings())
        #expect(SnowSettings(images: [], rate: 1).validationError(assets: ["snowflake"]) != nil)
        #expect(SnowSettings(images: ["snowflake", "snowflake"]).validationError(assets: ["snowflake"]) != nil)
        #expect(SnowSettings(rate: 101).validationError(assets: ["snowflake"]) != nil)
        #expect(SnowSettings(rate: .nan).validationError(assets: ["snowflake"]) != nil)
    }

    @Test func theSameSeedGivesTheSameSnow() {
        let a = snow(seed: 42), b = snow(seed: 42), c = snow(seed: 43)
        let pa = a.particles(a.scene.flakeLayer, at: 12.5)
        #expect(pa == b.particles(b.scene.flakeLayer, at: 12.5))
        #expect(pa.map(\.position) != c.particles(c.scene.flakeLayer, at: 12.5).map(\.position))
    }

    @Test func demoOneSpawnsAlongTheTopEdge() {
        let harness = snow()
        let layer = harness.scene.flakeLayer
        let t = harness.stage.run { layer.localTime(atMedia: 20) }
        let young = harness.particles(layer, at: 20).filter { t - $0.birthTime < 0.15 }
        // Born on the line y = −10, x in W/2 ± W (emitterSize 2W); 0.15 s at most 15 pt/s
        // (velocity 10 + 10/2) plus ½ · 10 · 0.15² is under 2.4 pt from it.
        #expect(!young.isEmpty)
        for particle in young {
            #expect(abs(particle.position.y + 10) < 2.4)
            #expect(particle.position.x >= -207 - 1 && particle.position.x <= 621 + 1)
        }
    }
}
