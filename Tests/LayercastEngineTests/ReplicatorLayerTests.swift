import Foundation
import Testing
@testable import LayercastEngine

// CAReplicatorLayer's instances (docs/engine-model.md §10.3): transforms, colours, time shifts, hits.

@Suite("CAReplicatorLayer")
struct ReplicatorLayerTests {
    @Test func defaultsAreApples() {
        let r = CAReplicatorLayer()
        #expect(r.instanceCount == 1)
        #expect(r.instanceDelay == 0)
        #expect(CATransform3DIsIdentity(r.instanceTransform))
        #expect(r.instanceColor == .white)
        #expect(r.instanceRedOffset == 0 && r.instanceAlphaOffset == 0)
        #expect(!r.preservesDepth && r.flattensSublayers)
        r.preservesDepth = true
        #expect(!r.flattensSublayers)
    }

    @Test func instanceTransformAccumulatesAboutTheCentre() {
        // A 100×100 replicator rotating each copy by 90°: a dot at (50, 0) (top centre) goes to
        // (100, 50) in copy 1 and (50, 100) in copy 2 (y down, positive angles turn +x towards +y).
        var r = ReplicatorLayerProperties()
        r.instanceCount = 3
        r.instanceTransform = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
        let bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        let dot = CGPoint(x: 50, y: 0)
        #expect(close(r.instance(0, bounds: bounds).transform.project(dot)!, dot))
        #expect(close(r.instance(1, bounds: bounds).transform.project(dot)!, CGPoint(x: 100, y: 50), 1e-9))
        #expect(close(r.instance(2, bounds: bounds).transform.project(dot)!, CGPoint(x: 50, y: 100), 1e-9))
    }

    @Test func translationsAddUp() {
        var r = ReplicatorLayerProperties()
        r.instanceTransform = CATransform3DMakeTranslation(20, 0, 0)
        let t = r.instance(4, bounds: CGRect(x: 0, y: 0, width: 7, height: 9)).transform
        #expect(close(t, CATransform3DMakeTranslation(80, 0, 0)))
    }

    @Test func colorOffsetsAccumulateAndClamp() {
        // Apple's overview example: white, blue and green offsets −0.2 per copy reach 0 at copy 5.
        var r = ReplicatorLayerProperties()
        r.instanceBlueOffset = -0.2
        r.instanceGreenOffset = -0.2
        r.instanceAlphaOffset = 0.5
        let bounds = CGRect.zero
        #expect(r.instance(0, bounds: bounds).color == .white)
        let c2 = r.instance(2, bounds: bounds).color
        #expect(c2.red == 1 && abs(c2.green - 0.6) < 1e-6 && abs(c2.blue - 0.6) < 1e-6 && c2.alpha == 1)
        #expect(r.instance(7, bounds: bounds).color == CGColor(red: 1, green: 0, blue: 0, alpha: 1))
    }

    @Test func copiesLagByTheInstanceDelay() {
        // Apple's instanceDelay example: a 1 s fade, each copy offset by the delay: copy k shows the
        // fade as at t − k·delay.
        SceneContext(clock: ManualClock()).run {
            let r = CAReplicatorLayer()
            r.instanceCount = 3
            r.instanceDelay = 0.25
            let dot = CALayer()
            r.addSublayer(dot)
            let fade = CABasicAnimation(keyPath: "opacity")
            fade.fromValue = 1
            fade.toValue = 0
            fade.duration = 1
            dot.add(fade, forKey: "fade")
            #expect(r.properties.replicator!.instance(2, bounds: r.bounds).timeShift == -0.5)
            var opacities: [Float] = []
            for k in 0..<3 { r.forEachPresentedCopy(k, at: 0.75) { _, p in opacities.append(p.opacity) } }
            #expect(zip(opacities, [0.25, 0.5, 0.75] as [Float]).allSatisfy { abs($0 - $1) < 1e-6 })
        }
    }

    @Test func animatedPropertiesArePresented() {
        SceneContext(clock: ManualClock()).run {
            let r = CAReplicatorLayer()
            let count = CABasicAnimation(keyPath: "instanceCount")
            count.fromValue = 0
            count.toValue = 10
            count.duration = 1
            r.add(count, forKey: "count")
            let turn = CABasicAnimation(keyPath: "instanceTransform.rotation.z")
            turn.toValue = CGFloat.pi / 2
            turn.duration = 1
            r.add(turn, forKey: "turn")
            let p = r.presentation(at: 0.37)!
            #expect(p.instanceCount == 3)
            #expect(close(p.instanceTransform, CATransform3DMakeRotation(0.37 * .pi / 2, 0, 0, 1), 1e-9))
        }
    }

    @Test func hitTestingFindsOnlyTheOriginal() {
        let r = CAReplicatorLayer()
        r.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        r.instanceCount = 3
        r.instanceTransform = CATransform3DMakeTranslation(30, 0, 0)
        let dot = CALayer()
        dot.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
        r.addSublayer(dot)
        #expect(r.hitTest(CGPoint(x: 5, y: 5)) === dot)
        #expect(r.hitTest(CGPoint(x: 35, y: 5)) === r)
    }
}
