import Foundation
import Layercast
import LayercastSceneTesting
import Testing
import UIKitExamples

private let onButton = CGPoint(x: 207, y: 368)

@Test func tappingTheButtonLikesAndTappingAgainTakesItBack() throws {
    let harness = SceneHarness(LikeButtonScene.self, seed: 1)
    let result = harness.tap(at: onButton, by: Tapper(client: "c1"))
    #expect(result.outcome == .answered)
    #expect(result.events == [SceneEvent(name: "like", data: ["liked": true], client: "c1")])
    #expect(harness.scene.button.isSelected && harness.scene.button.currentTitle == "♥ Liked")
    harness.run(to: 1)
    #expect(harness.tap(at: onButton).events.first?.data == ["liked": false])
    #expect(harness.tap(at: CGPoint(x: 20, y: 20)).outcome == .ignored)
}

@Test func theButtonPopsThenSpringsBackPastItsSize() throws {
    let harness = SceneHarness(LikeButtonScene.self, seed: 1)
    let like = try #require(harness.layer(named: "like"))
    harness.tap(at: onButton)   // at 0: scale 1.1 at once, a spring to 1 settling in 0.5 s
    let spring = try #require(like.animation(forKey: "transform") as? CASpringAnimation)
    #expect(spring.isAdditive && spring.duration == 0.5 && spring.initialVelocity == 6)
    #expect(abs(spring.settlingDuration - 0.5) <= 0.002)
    let scale = { (t: CFTimeInterval) in try #require(harness.presentation(of: like, at: t)).transform.m11 }
    #expect(abs(try scale(0) - 1.1) < 1e-9)
    // Velocity 6 towards 1 overshoots below it early on, then settles.
    let early = try (1...20).map { try scale(Double($0) * 0.01) }
    #expect(early.min()! < 0.99)
    harness.run(to: 0.6)
    #expect(abs(try scale(0.6) - 1) < 1e-9)
    #expect(like.animationKeys() == nil)
}
