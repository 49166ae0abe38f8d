import Foundation
import Layercast
import LayercastSceneTesting
import ReplicatorBars
import Testing

/// The bar's opacity `τ` seconds into its animation: 1 → 0.2 linearly each second, repeating;
/// before the animation begins (a copy delayed past it), the model's 1.
private func pulse(_ τ: Double) -> Double {
    τ < 0 ? 1 : 1 - 0.8 * τ.truncatingRemainder(dividingBy: 1)
}

@Test func theReplicatorIsTheOriginalsRowOfFiveCentredInTheView() throws {
    let harness = SceneHarness(ReplicatorBarsScene.self, seed: 1)
    let replicator = try #require(harness.layer(named: "replicator") as? CAReplicatorLayer)
    let bar = try #require(harness.layer(named: "bar"))
    #expect(replicator.frame == CGRect(x: 137.5, y: 323.5, width: 100, height: 20))   // centred in 375 × 667
    #expect(bar.frame == CGRect(x: 0, y: 0, width: 10, height: 20) && bar.backgroundColor == .red)
    #expect(replicator.instanceCount == 5 && replicator.instanceDelay == 0.2)
    // Copy k is the bar moved 20·k points right, its animation k·0.2 s behind (engine-model.md §10.3).
    let properties = try #require(replicator.presentation()?.presentedProperties(atLocalTime: 0).replicator)
    for k in 0..<5 {
        let copy = properties.instance(k, bounds: replicator.bounds)
        #expect(copy.transform == CATransform3DMakeTranslation(CGFloat(20 * k), 0, 0))
        #expect(abs(copy.timeShift + 0.2 * Double(k)) < 1e-12)
    }
}

@Test func eachCopyPulsesAFifthOfASecondBehindTheOneOnItsLeft() throws {
    let harness = SceneHarness(ReplicatorBarsScene.self, seed: 1)
    let replicator = try #require(harness.layer(named: "replicator") as? CAReplicatorLayer)
    let bar = try #require(harness.layer(named: "bar"))
    for t in [0.5, 1.25, 2.65, 30.05] {
        for k in 0..<5 {
            var opacity: Float?
            replicator.forEachPresentedCopy(k, at: t) { layer, presented in
                if layer === bar { opacity = presented.opacity }
            }
            let expected = pulse(t - 0.2 * Double(k))
            #expect(abs(Double(try #require(opacity)) - expected) < 1e-6, "copy \(k) at \(t)")
        }
    }
}

@Test func theClientIsSentFiveBarsTwentyPointsApartFadingAlongTheRow() throws {
    let harness = SceneHarness(ReplicatorBarsScene.self, seed: 1)
    harness.run(to: 2.65)
    let bars = harness.displayList.items.filter { $0.name == "bar" }
    #expect(bars.count == 5)
    for (k, item) in bars.enumerated() {
        #expect(abs(item.matrix.tx - (137.5 + 20 * Double(k))) < 0.01 && abs(item.matrix.ty - 323.5) < 0.01)
        #expect(abs(item.opacity - pulse(2.65 - 0.2 * Double(k))) < 0.002, "bar \(k): \(item.opacity)")
        #expect(item.width == 10 && item.height == 20)
    }
    #expect(Set(bars.map(\.id)).count == 5)   // each copy has an id of its own
}

@Test func tapsChangeNothing() throws {
    let harness = SceneHarness(ReplicatorBarsScene.self, seed: 1)
    harness.run(to: 1)
    let bar = try #require(harness.layer(named: "bar"))
    #expect(harness.hit(at: CGPoint(x: 142.5, y: 333.5)) === bar)
    let result = harness.tap(at: CGPoint(x: 142.5, y: 333.5))   // on the first bar
    #expect(result.outcome == .ignored && result.events.isEmpty)
}
