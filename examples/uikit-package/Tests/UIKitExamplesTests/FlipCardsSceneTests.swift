import Foundation
import Layercast
import LayercastSceneTesting
import Testing
import UIKitExamples

private let flip = CGPoint(x: 207, y: 605)
private let cardMiddle = CGPoint(x: 207, y: 343)

@Test func flipTurnsTheContainerAndSwapsTheCardsEdgeOn() throws {
    let harness = SceneHarness(FlipCardsScene.self, seed: 1)
    let golden = try #require(harness.layer(named: "golden")), green = try #require(harness.layer(named: "green"))
    #expect(harness.hit(at: cardMiddle) === golden)
    #expect(harness.tap(at: flip).outcome == .answered)
    _ = harness.takeEvents()
    #expect(harness.presentation(of: golden, at: 0.24)?.isHidden == false)
    #expect(harness.presentation(of: green, at: 0.24)?.isHidden == true)
    #expect(harness.presentation(of: golden, at: 0.26)?.isHidden == true)
    #expect(harness.presentation(of: green, at: 0.26)?.isHidden == false)
    harness.run(to: 0.2)
    // Turned part way (about 60°): 10 points in from the card's left edge is off it now.
    let offEdge = harness.hit(at: CGPoint(x: 92, y: 343))
    #expect(offEdge !== golden && offEdge !== harness.scene.container.layer)
    #expect(harness.hit(at: cardMiddle) === golden)
    harness.run(to: 0.5)
    #expect(harness.takeEvents() == [SceneEvent(name: "flipped", data: ["card": "green"], client: "c1")])
    #expect(harness.hit(at: cardMiddle) === green)
    #expect(harness.scene.goldenView.superview === harness.scene.container)   // shown and hidden, not removed
}
