import Foundation
import Layercast
import LayercastSceneTesting
import Testing
import UIKitExamples

private let spin = CGPoint(x: 207, y: 565)

@Test func spinTurnsTheWheelAndTheCompletionNamesTheRestaurantAtOneSecond() throws {
    let harness = SceneHarness(RouletteScene.self, seed: 1)
    let wheel = try #require(harness.layer(named: "wheel"))
    #expect(harness.tap(at: spin, by: Tapper(client: "c1")).events == [SceneEvent(name: "spin", data: ["position": 340], client: "c1")])
    // 340 radians: the model holds it at once; the wheel turns there the short way over 1 s.
    let angle = atan2(wheel.transform.m12, wheel.transform.m11)
    #expect(abs(angle - atan2(sin(340), cos(340))) < 1e-9)
    #expect(abs(try #require(harness.presentation(of: wheel, at: 0)).transform.m12) < 1e-9)
    let halfway = try #require(harness.presentation(of: wheel, at: 0.5)).transform
    #expect(abs(atan2(halfway.m12, halfway.m11) - angle / 2) < 1e-6)   // easeInEaseOut is half-way at half time
    _ = harness.takeEvents()   // the spin, already checked
    harness.run(to: 0.99)
    #expect(harness.takeEvents().isEmpty)
    harness.run(to: 1)
    let picked = harness.takeEvents()
    #expect(picked == [SceneEvent(name: "picked", data: ["restaurant": .string(harness.scene.restaurantUnderPointer)], client: "c1")])
    // The wedge at angle −340 from the top, clockwise: 340 mod 2π = 0.708 rad, so 2π − 0.708 = 5.575 rad, wedge 5 of 6.
    #expect(harness.scene.restaurantUnderPointer == "Salad")
}

@Test func theWheelItselfTakesNoTaps() {
    let harness = SceneHarness(RouletteScene.self, seed: 1)
    #expect(harness.tap(at: CGPoint(x: 207, y: 318)).outcome == .ignored)
}
